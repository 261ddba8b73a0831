import type { ExportColumn } from './export-column';

/**
 * Rows of `COPY … TO STDOUT` (text format) as NDJSON lines, one JSON object per row with the
 * dataset's field names.
 *
 * Postgres writes the values in the API's representation (the same expressions as the CSV
 * export); only the JSON syntax is added here. Building each line in SQL cost about twice a plain
 * COPY (300k sales rows): `to_json` looks its argument's type up on every call (about 0.8 µs per
 * text field) and each `||` copies the line so far. Splitting the rows into JavaScript strings and
 * encoding them back cost 6–8 µs a row; this works on the bytes (about a third of that, three
 * times a bare byte-copy loop) and copies every byte that needs no escaping as it is. The output
 * is byte for byte what `to_json` and `JSON.stringify` write.
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
const NULL_JSON = Buffer.from('null');
/** COPY's escapes of control characters (CopyAttributeOutText), with what they stand for. */
const COPY_ESCAPES: Record<number, number> = { 98: 8, 102: 12, 110: 10, 114: 13, 116: 9, 118: 11 };

export class CopyTextToNdjson {
  /** `{"name":` then `,"name":` …, UTF-8 encoded once. */
  private readonly prefixes: Buffer[];
  /** Numbers, booleans and JSON are written as they are; the rest become JSON strings. */
  private readonly verbatim: boolean[];
  /** The most a row adds besides its own bytes: every prefix, every field null, `}` and newline. */
  private readonly rowOverhead: number;
  /** The start of a row whose end is in a later chunk. */
  private rest: Buffer | null = null;
  private out = Buffer.alloc(0);
  private at = 0;

  constructor(columns: readonly ExportColumn[]) {
    this.prefixes = columns.map((c, i) => Buffer.from(`${i === 0 ? '{' : ','}${JSON.stringify(c.name)}:`));
    this.verbatim = columns.map((c) => c.type === 'int' || c.type === 'bool' || c.type === 'json');
    this.rowOverhead = this.prefixes.reduce((n, p) => n + p.length + NULL_JSON.length, 2);
  }

  /** The JSON lines of the rows the chunk completes (empty when it completes none). */
  push(chunk: Buffer): Buffer {
    const data = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    const end = data.lastIndexOf(NL) + 1;
    this.rest = end < data.length ? data.subarray(end) : null;
    // A fresh buffer each time (it is handed on), sized for the usual growth of a row.
    this.out = Buffer.allocUnsafe(end * 2 + this.rowOverhead);
    this.at = 0;
    for (let i = 0; i < end; ) {
      const rowEnd = data.indexOf(NL, i);
      // Worst case: every byte becomes \u00XX.
      this.reserve((rowEnd - i) * 6 + this.rowOverhead);
      i = this.row(data, i, rowEnd) + 1;
    }
    return this.out.subarray(0, this.at);
  }

  /** Throws when the COPY output stopped inside a row. */
  end(): void {
    if (this.rest) throw new Error('COPY output ended inside a row');
  }

  private reserve(bytes: number): void {
    if (this.at + bytes <= this.out.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.at + bytes));
    this.out.copy(grown, 0, 0, this.at);
    this.out = grown;
  }

  /** Writes one row's JSON line; returns the index of its newline. */
  private row(data: Buffer, start: number, rowEnd: number): number {
    const out = this.out;
    let o = this.at;
    let i = start;
    for (let field = 0; field < this.prefixes.length; field++) {
      if (field > 0) {
        if (data[i] !== TAB)
          throw new Error(`COPY row has ${field} fields, expected ${this.prefixes.length}`);
        i++;
      }
      // Byte by byte: a native copy call costs more than these few bytes.
      const prefix = this.prefixes[field] as Buffer;
      for (let p = 0; p < prefix.length; p++) out[o++] = prefix[p] as number;
      if (data[i] === BACKSLASH && data[i + 1] === NULL_MARK && (i + 2 === rowEnd || data[i + 2] === TAB)) {
        for (let p = 0; p < NULL_JSON.length; p++) out[o++] = NULL_JSON[p] as number;
        i += 2;
        continue;
      }
      const quoted = !this.verbatim[field];
      if (quoted) out[o++] = QUOTE;
      for (; i < rowEnd; i++) {
        let c = data[i] as number;
        // Most bytes (addresses, numbers, names) are copied as they are.
        if (SPECIAL[c] === 0) {
          out[o++] = c;
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
      }
      if (quoted) out[o++] = QUOTE;
    }
    if (i !== rowEnd) throw new Error(`COPY row has more than ${this.prefixes.length} fields`);
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
