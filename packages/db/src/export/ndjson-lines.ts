import type { ExportColumn } from './export-column';

/**
 * Rows of `COPY … TO STDOUT` (text format) as NDJSON lines, one JSON object per row with the
 * dataset's field names.
 *
 * Postgres writes the values in the API's representation (the same expressions as the CSV
 * export); only the JSON syntax is added here. Building each line in SQL cost about twice a plain
 * COPY (300k sales rows): `to_json` looks its argument's type up on every call (about 0.8 µs per
 * text field) and each `||` copies the line so far. Splitting the rows into JavaScript strings and
 * encoding them back cost 6–8 µs a row; this works on the bytes. Most bytes need no escaping and
 * are copied as 32-bit words, four at a time (one test finds the first byte in a word that needs a
 * look); the field names are written as precomputed words, and only the one row that straddles
 * two chunks is copied before it is read. A byte-at-a-time loop cost about twice as much (1M sales
 * rows, docs/PERFORMANCE.md). The output is byte for byte what `to_json` and `JSON.stringify` write.
 */
const NL = 0x0a;
const TAB = 0x09;
const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const NULL_MARK = 0x4e; // the N of COPY's \N
const HEX = Buffer.from('0123456789abcdef');
/** Bytes that are not copied as they are: COPY's backslash, and what JSON escapes in a string. */
const SPECIAL = new Uint8Array(256);
SPECIAL.fill(1, 0, 0x20);
SPECIAL[QUOTE] = 1;
SPECIAL[BACKSLASH] = 1;
/** `null` as one little-endian 32-bit word. */
const NULL_WORD = Buffer.from('null').readInt32LE(0);
/** COPY's escapes of control characters (CopyAttributeOutText), with what they stand for. */
const COPY_ESCAPES: Record<number, number> = { 98: 8, 102: 12, 110: 10, 114: 13, 116: 9, 118: 11 };
/** Room a word write may take past the bytes it means to write. */
const SLACK = 8;

/**
 * Which of a little-endian word's four bytes may be SPECIAL (below 0x20, `"` or `\`): the high
 * bit of each such byte, with the bit tricks of "Bit Twiddling Hacks" (hasless, haszero). Zero
 * when none is; otherwise the lowest set bit marks the first special byte exactly (a borrow can
 * only mark bytes above it). Bytes of 0x80 and above (UTF-8) are never marked themselves.
 */
function specialBits(w: number): number {
  const quote = w ^ 0x22222222;
  const backslash = w ^ 0x5c5c5c5c;
  return (
    ((((w - 0x20202020) | 0) & ~w) |
      (((quote - 0x01010101) | 0) & ~quote) |
      (((backslash - 0x01010101) | 0) & ~backslash)) &
    0x80808080
  );
}

export class CopyTextToNdjson {
  /**
   * `{"name":` then `,"name":` …, UTF-8 encoded once, as little-endian words padded with zeros; a
   * string field's opening quote follows (a null overwrites it).
   */
  private readonly prefixWords: Int32Array[];
  private readonly prefixLengths: Int32Array;
  /** Numbers, booleans and JSON are written as they are; the rest become JSON strings. */
  private readonly verbatim: Uint8Array;
  /** The most a row adds besides its own bytes: every prefix, every field null, `}` and newline. */
  private readonly rowOverhead: number;
  /** The start of a row whose end is in a later chunk. */
  private rest: Buffer | null = null;
  private out: Buffer = Buffer.alloc(0);
  private outView: DataView = new DataView(this.out.buffer, this.out.byteOffset, 0);
  private at = 0;

  constructor(columns: readonly ExportColumn[]) {
    const prefixes = columns.map((c, i) => Buffer.from(`${i === 0 ? '{' : ','}${JSON.stringify(c.name)}:`));
    this.prefixWords = prefixes.map((p) => {
      const padded = Buffer.alloc(Math.ceil((p.length + 1) / 4) * 4);
      p.copy(padded);
      padded[p.length] = QUOTE;
      return Int32Array.from({ length: padded.length / 4 }, (_, w) => padded.readInt32LE(w * 4));
    });
    this.prefixLengths = Int32Array.from(prefixes, (p) => p.length);
    this.verbatim = Uint8Array.from(columns, (c) =>
      c.type === 'int' || c.type === 'bool' || c.type === 'json' ? 1 : 0,
    );
    this.rowOverhead = prefixes.reduce((n, p) => n + p.length + 4 + 2, 2) + SLACK;
  }

  /** The JSON lines of the rows the chunk completes (empty when it completes none). */
  push(chunk: Buffer): Buffer {
    const last = chunk.lastIndexOf(NL);
    if (last === -1) {
      this.rest = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
      return chunk.subarray(0, 0);
    }
    // A fresh buffer each time (it is handed on), sized for the usual growth of a row.
    this.setOut(Buffer.allocUnsafe((last + 1 + (this.rest?.length ?? 0)) * 2 + this.rowOverhead));
    this.at = 0;
    let start = 0;
    if (this.rest) {
      // Only the row that straddles two chunks is copied into one piece.
      const first = chunk.indexOf(NL) + 1;
      this.rows(Buffer.concat([this.rest, chunk.subarray(0, first)]));
      start = first;
    }
    this.rows(chunk.subarray(start, last + 1));
    this.rest = last + 1 < chunk.length ? chunk.subarray(last + 1) : null;
    return this.out.subarray(0, this.at);
  }

  /** Throws when the COPY output stopped inside a row. */
  end(): void {
    if (this.rest) throw new Error('COPY output ended inside a row');
  }

  /** Encodes whole rows (the data ends with a newline). */
  private rows(data: Buffer): void {
    const view = new DataView(data.buffer, data.byteOffset, data.length);
    for (let i = 0; i < data.length; ) {
      const rowEnd = data.indexOf(NL, i);
      // Worst case: every byte becomes \u00XX.
      this.reserve((rowEnd - i) * 6 + this.rowOverhead);
      i = this.row(data, view, i, rowEnd) + 1;
    }
  }

  private setOut(out: Buffer): void {
    this.out = out;
    this.outView = new DataView(out.buffer, out.byteOffset, out.length);
  }

  private reserve(bytes: number): void {
    if (this.at + bytes <= this.out.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.at + bytes));
    this.out.copy(grown, 0, 0, this.at);
    this.setOut(grown);
  }

  /** Writes one row's JSON line; returns the index of its newline. */
  private row(data: Buffer, view: DataView, start: number, rowEnd: number): number {
    const out = this.out;
    const outView = this.outView;
    const fields = this.prefixLengths.length;
    let o = this.at;
    let i = start;
    for (let field = 0; field < fields; field++) {
      if (field > 0) {
        if (data[i] !== TAB) throw new Error(`COPY row has ${field} fields, expected ${fields}`);
        i++;
      }
      // Whole words, a few bytes past the prefix (the next write covers them).
      const words = this.prefixWords[field] as Int32Array;
      for (let w = 0; w < words.length; w++) outView.setInt32(o + w * 4, words[w] as number, true);
      o += this.prefixLengths[field] as number;
      if (data[i] === BACKSLASH && data[i + 1] === NULL_MARK && (i + 2 === rowEnd || data[i + 2] === TAB)) {
        outView.setInt32(o, NULL_WORD, true);
        o += 4;
        i += 2;
        continue;
      }
      const quoted = this.verbatim[field] === 0;
      if (quoted) o++;
      while (i < rowEnd) {
        // Most bytes (addresses, numbers, names) are copied as they are, four at a time.
        if (i + 4 <= rowEnd) {
          const w = view.getInt32(i, true);
          const special = specialBits(w);
          outView.setInt32(o, w, true);
          if (special === 0) {
            o += 4;
            i += 4;
            continue;
          }
          // Keep the bytes before the first special one; the rest of the word is written again.
          const plainBytes = (31 - Math.clz32(special & -special)) >> 3;
          o += plainBytes;
          i += plainBytes;
        }
        let c = data[i] as number;
        if (SPECIAL[c] === 0) {
          out[o++] = c;
          i++;
          continue;
        }
        if (c === TAB) break;
        if (c === BACKSLASH) {
          i++;
          const escaped = data[i] as number;
          c = COPY_ESCAPES[escaped] ?? escaped;
        }
        if (!quoted || (c >= 0x20 && c !== QUOTE && c !== BACKSLASH)) {
          out[o++] = c;
        } else if (c === QUOTE || c === BACKSLASH) {
          out[o++] = BACKSLASH;
          out[o++] = c;
        } else {
          o = controlEscape(out, o, c);
        }
        i++;
      }
      if (quoted) out[o++] = QUOTE;
    }
    if (i !== rowEnd) throw new Error(`COPY row has more than ${fields} fields`);
    out[o++] = 0x7d; // }
    out[o++] = NL;
    this.at = o;
    return rowEnd;
  }
}

/** A control character as JSON.stringify writes it: \b \f \n \r \t, else \u00XX. */
function controlEscape(out: Buffer, at: number, c: number): number {
  let o = at;
  out[o++] = BACKSLASH;
  const short = c === 8 ? 0x62 : c === 12 ? 0x66 : c === 10 ? 0x6e : c === 13 ? 0x72 : c === 9 ? 0x74 : 0;
  if (short !== 0) {
    out[o++] = short;
    return o;
  }
  out[o++] = 0x75; // u
  out[o++] = 0x30;
  out[o++] = 0x30;
  out[o++] = HEX[c >> 4] as number;
  out[o++] = HEX[c & 15] as number;
  return o;
}
