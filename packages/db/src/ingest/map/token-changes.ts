import type { TokenRow } from '../types';

/*
 * A token's last_transaction_version is the last version that changed what is stored about it.
 * Most transactions that touch a token (every v2 transfer rewrites the token's resources) repeat
 * what it already says, and the token writer skips such repeats against the stored row. Within one
 * batch the same rule applies here, before the facts are merged: a fact that repeats the token's
 * earlier facts in the batch is dropped. So the stored version does not depend on where a range
 * was cut into batches.
 */

/**
 * The token rows of a batch (chain order) without the ones that repeat an earlier row of the
 * batch. The compared columns and rules are the token writer's (packages/db ingest/tokens.ts).
 */
export function dropRepeatedTokenRows(rows: readonly TokenRow[]): TokenRow[] {
  const known = new Map<string, Known>();
  const kept: TokenRow[] = [];
  for (const row of rows) {
    const before = known.get(row.token_data_id);
    const after = merge(before, row);
    if (before === undefined || changes(before, after)) kept.push(row);
    known.set(row.token_data_id, after);
  }
  return kept;
}

/** What the batch has said so far about a token: the later non-null value of every field. */
type Known = Record<ComparedField, string | null>;

const COMPARED = [
  'collection_id',
  'token_name',
  'creator_address',
  'collection_name',
  'description',
  'token_uri',
  'properties',
  'supply',
  'maximum',
  'largest_property_version',
  'is_soulbound',
  'minted_version',
] as const;
type ComparedField = (typeof COMPARED)[number];

function merge(before: Known | undefined, row: TokenRow): Known {
  const next = { ...(before ?? emptyKnown()) };
  for (const field of COMPARED) {
    const value = comparable(field, row[field]);
    if (value === null || !overwrites(field, value, next[field])) continue;
    next[field] = value;
  }
  return next;
}

/** An empty name, a false soulbound flag and a second mint never overwrite, as in the token writer. */
function overwrites(field: ComparedField, value: string, known: string | null): boolean {
  if (field === 'token_name') return value !== '';
  if (field === 'is_soulbound') return value === 'true';
  if (field === 'minted_version') return known === null;
  return true;
}

function changes(before: Known, after: Known): boolean {
  return COMPARED.some((field) => before[field] !== after[field]);
}

function emptyKnown(): Known {
  return Object.fromEntries(COMPARED.map((f) => [f, null])) as Known;
}

function comparable(field: ComparedField, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (field === 'properties') return canonicalJson(value as Record<string, string>);
  return String(value);
}

/** jsonb compares objects regardless of key order; so does this. */
function canonicalJson(map: Record<string, string>): string {
  return JSON.stringify(
    Object.keys(map)
      .sort()
      .map((k) => [k, map[k]]),
  );
}
