/**
 * Thrown only when the input is not a transaction a fullnode could have produced (missing version,
 * events that are not an array, a framework event without its fields, ...). The indexer stores such
 * a transaction as failed instead of stopping; a well-formed transaction never throws.
 */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
  readonly version: string | null;
  readonly reason: string;

  constructor(reason: string, version: string | null = null) {
    super(version === null ? reason : `version ${version}: ${reason}`);
    this.reason = reason;
    this.version = version;
  }
}
