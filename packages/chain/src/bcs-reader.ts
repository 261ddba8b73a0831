/**
 * Minimal BCS reader for the scalar values stored in property maps. Property values arrive as
 * hex-encoded BCS bytes; this reads one value and insists the bytes are fully consumed.
 */
export class BcsReader {
  private offset = 0;
  private readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  static fromHex(hex: string): BcsReader {
    const body = hex.startsWith('0x') ? hex.slice(2) : hex;
    if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) throw new RangeError(`not hex: ${hex}`);
    return new BcsReader(Uint8Array.from(Buffer.from(body, 'hex')));
  }

  get done(): boolean {
    return this.offset === this.bytes.length;
  }

  private take(count: number): Uint8Array {
    if (this.offset + count > this.bytes.length) throw new RangeError('BCS value is truncated');
    const slice = this.bytes.subarray(this.offset, this.offset + count);
    this.offset += count;
    return slice;
  }

  uleb128(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = this.take(1)[0] as number;
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7;
      if (shift > 28) throw new RangeError('ULEB128 length too large');
    }
  }

  bool(): boolean {
    const byte = this.take(1)[0];
    if (byte === 0) return false;
    if (byte === 1) return true;
    throw new RangeError(`invalid BCS bool byte ${byte}`);
  }

  /** Unsigned little-endian integer of `bytes` width, as a decimal string (u64+ exceed 2^53). */
  uint(bytes: 1 | 2 | 4 | 8 | 16 | 32): string {
    const slice = this.take(bytes);
    let value = 0n;
    for (let i = slice.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(slice[i] as number);
    return value.toString();
  }

  address(): string {
    return `0x${Buffer.from(this.take(32)).toString('hex')}`;
  }

  byteVector(): Uint8Array {
    return this.take(this.uleb128());
  }

  string(): string {
    return new TextDecoder('utf-8', { fatal: true }).decode(this.byteVector());
  }
}
