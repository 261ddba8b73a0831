import { isAddress, normalizeAddress } from '../../src/index';

/** One field where our facts and an official row disagree. */
export interface Mismatch {
  test: string;
  table: string;
  /** Row key, e.g. `2386455218#7` or a token id. */
  row: string;
  field: string;
  /** `differs`: both set, different; `we-fill`: official null, ours set; `missing-row` / `extra-row`. */
  kind: 'differs' | 'we-fill' | 'we-omit' | 'missing-row' | 'extra-row';
  expected: unknown;
  actual: unknown;
  /** What the row is (activity kind / official event type), so deviations can be scoped to it. */
  context: string | null;
}

/** Official rows copy Move values unnormalized (63-digit ids); compare in long form. */
export function canonical(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') return JSON.stringify(sortKeys(value));
  const text = String(value);
  return isAddress(text) && text.length > 3 ? normalizeAddress(text) : text;
}

function sortKeys(value: object): unknown {
  if (Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)));
}

export class MismatchCollector {
  readonly mismatches: Mismatch[] = [];

  constructor(readonly test: string) {}

  /** Compare one field; `expected === undefined` means the official model has no such column. */
  field(
    table: string,
    row: string,
    field: string,
    expected: unknown,
    actual: unknown,
    context?: string,
  ): void {
    const want = canonical(expected);
    const got = canonical(actual);
    if (want === got) return;
    const kind = want === null ? 'we-fill' : got === null ? 'we-omit' : 'differs';
    this.mismatches.push({
      test: this.test,
      table,
      row,
      field,
      kind,
      expected: want,
      actual: got,
      context: context ?? null,
    });
  }

  row(table: string, row: string, kind: 'missing-row' | 'extra-row', detail: unknown): void {
    this.mismatches.push({
      test: this.test,
      table,
      row,
      field: '*',
      kind,
      expected: kind === 'missing-row' ? detail : null,
      actual: kind === 'extra-row' ? detail : null,
      context: detail === null || detail === undefined ? null : String(detail),
    });
  }
}

/** µs since the epoch → the official `timestamp without time zone` text, e.g. `2025-02-28T00:00:00`. */
export function isoFromMicros(us: string | null): string | null {
  if (us === null) return null;
  const ms = Number(BigInt(us) / 1000n);
  const iso = new Date(ms).toISOString();
  const micros = BigInt(us) % 1_000_000n;
  return micros === 0n ? iso.slice(0, 19) : `${iso.slice(0, 19)}.${micros.toString().padStart(6, '0')}`;
}
