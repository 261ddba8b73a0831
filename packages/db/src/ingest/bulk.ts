import { sql } from 'kysely';
import type { Db } from '../database';

/** Postgres array element types used by the bulk writers. */
type PgType =
  | 'text'
  | 'bigint'
  | 'integer'
  | 'numeric'
  | 'timestamptz'
  | 'boolean'
  | 'jsonb'
  | 'double precision';

/**
 * Every column of the row type with its Postgres type. Complete by type: a column added to the row
 * (and so to the schema it is derived from) and missing here fails the typecheck instead of going
 * silently unwritten; a name the row does not have fails as an excess property.
 */
export type Columns<R> = Readonly<{ [K in keyof R & string]-?: PgType }>;

/**
 * Some of a table's declared column types, for a writer that fills only those columns: the types
 * stay declared once, next to the table's main writer.
 */
export function pickColumns<C extends Record<string, string>, K extends keyof C & string>(
  columns: C,
  names: readonly K[],
): Pick<C, K> {
  return Object.fromEntries(names.map((name) => [name, columns[name]])) as Pick<C, K>;
}

/**
 * One INSERT ... SELECT FROM unnest(...) per call: a whole batch in one statement with one bind
 * parameter per column, so it stays far below pg's 65,535-parameter limit at any batch size.
 * `tail` is the ON CONFLICT clause (trusted SQL written in this package, never user input).
 */
export async function unnestInsert<R extends object>(
  db: Db,
  table: string,
  // NoInfer: the row type comes from the rows, and the column map must cover it.
  columns: Columns<NoInfer<R>>,
  rows: readonly R[],
  tail: string,
): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await unnestStatement(table, columns, rows, tail).execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** The same statement with a RETURNING tail: the rows Postgres actually inserted or updated. */
export async function unnestInsertReturning<R extends object, Out>(
  db: Db,
  table: string,
  columns: Columns<NoInfer<R>>,
  rows: readonly R[],
  tail: string,
): Promise<Out[]> {
  if (rows.length === 0) return [];
  const result = await unnestStatement(table, columns, rows, tail).execute(db);
  return result.rows as Out[];
}

function unnestStatement<R extends object>(
  table: string,
  columns: Columns<R>,
  rows: readonly R[],
  tail: string,
) {
  const entries = Object.entries(columns) as [keyof R & string, PgType][];
  const names = entries.map(([name]) => name);
  const selects = entries.map(([name, type]) => {
    const values = rows.map((row) => toParam(row[name], type));
    return sql`${values}::${sql.raw(type)}[]`;
  });
  return sql`
    INSERT INTO ${sql.table(table)} (${sql.join(names.map((n) => sql.ref(n)))})
    SELECT * FROM unnest(${sql.join(selects)}) AS t(${sql.join(names.map((n) => sql.ref(n)))})
    ${sql.raw(tail)}
  `;
}

function toParam(value: unknown, type: PgType): unknown {
  if (value === undefined || value === null) return null;
  if (type === 'jsonb') return JSON.stringify(value);
  if (value instanceof Date) return value.toISOString();
  return value;
}

/** Keeps the last row per key (input in chain order), sorted by key so concurrent writers lock in one order. */
export function lastByKey<T>(rows: readonly T[], key: (row: T) => string): T[] {
  const map = new Map<string, T>();
  for (const row of rows) map.set(key(row), row);
  return [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/**
 * Several facts about one row in a batch (e.g. a mint then a mutation): later non-null values win,
 * earlier ones fill the gaps, and the first creation time is kept.
 */
export function mergeNonNull<T extends { last_transaction_version: number }>(
  rows: readonly T[],
  key: (row: T) => string,
): T[] {
  const merged = new Map<string, T>();
  for (const row of rows) {
    const k = key(row);
    const previous = merged.get(k);
    if (!previous) {
      merged.set(k, row);
      continue;
    }
    const next = { ...previous } as Record<string, unknown>;
    for (const [field, value] of Object.entries(row)) {
      if (value === null || value === undefined) continue;
      if (
        (field === 'created_at' ||
          field === 'created_version' ||
          field === 'minted_at' ||
          field === 'minted_version') &&
        next[field] != null
      )
        continue;
      next[field] = value;
    }
    merged.set(k, next as T);
  }
  return [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/**
 * ON CONFLICT assignments `col = COALESCE(excluded.col, table.col)`: a fact that does not show a
 * value (null) keeps the one stored.
 */
export function keepKnown(table: string, columns: readonly string[]): string {
  return columns.map((c) => `${c} = COALESCE(excluded.${c}, ${table}.${c})`).join(',\n       ');
}
