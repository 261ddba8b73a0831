import { ApiError } from '../plugins/errors';

/** Open streams per API key in this process; the limit protects the process from one key. */
export class ConnectionLimits {
  private readonly open = new Map<string, number>();

  constructor(private readonly perKey: number) {}

  /** Takes a slot or throws a 429 naming the limit; call the returned release once. */
  acquire(keyId: string): () => void {
    const count = this.open.get(keyId) ?? 0;
    if (count >= this.perKey) {
      throw new ApiError(
        429,
        'TOO_MANY_STREAMS',
        `this API key already has ${count} open event streams (limit ${this.perKey}); close one first`,
      );
    }
    this.open.set(keyId, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(keyId) ?? 1) - 1;
      if (left <= 0) this.open.delete(keyId);
      else this.open.set(keyId, left);
    };
  }
}
