import { fmix32 } from './prng';

const BYTE_HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

const words = new Uint32Array(8);
const wordBytes = Buffer.from(words.buffer);

/**
 * 64 hex digits derived from (a, b, c): stands in for hashes and object addresses. Not
 * cryptographic; only stable and well spread, which is all a simulated chain needs. One native
 * hex encoding of a shared buffer is several times faster than concatenating per-byte strings.
 */
export function hex32(a: number, b: number, c: number): string {
  let h = fmix32(a ^ 0x5bd1e995);
  h = fmix32(h ^ (b >>> 0));
  h = fmix32(h ^ Math.floor(b / 4294967296));
  h = fmix32(h ^ (c >>> 0));
  for (let i = 0; i < 8; i++) {
    h = fmix32((h + 0x9e3779b9 + i) | 0);
    words[i] = h;
  }
  return wordBytes.toString('hex');
}

/** The form Move values use on chain: leading zeros stripped (`0x0` for zero). */
export function moveAddress(hex64: string): string {
  let i = 0;
  while (i < 63 && hex64.charCodeAt(i) === 48) i++;
  return `0x${hex64.slice(i)}`;
}

/** A 32-byte hex value with `0x`, for hashes. */
export function hash32(a: number, b: number, c: number): string {
  return `0x${hex32(a, b, c)}`;
}

/** Little-endian u64 as BCS hex (no `0x`). */
export function u64LeHex(value: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < 8; i++) {
    const byte = v % 256;
    out += BYTE_HEX[byte] as string;
    v = Math.floor(v / 256);
  }
  return out;
}

function ulebHex(n: number): string {
  let out = '';
  let v = n;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out += BYTE_HEX[byte] as string;
  } while (v !== 0);
  return out;
}

/** BCS encoding of a Move `String` (ULEB128 length + UTF-8), as hex without `0x`. */
export function bcsStringHex(value: string): string {
  const bytes = Buffer.from(value, 'utf8');
  return ulebHex(bytes.length) + bytes.toString('hex');
}
