import { type RawBuilder, sql } from 'kysely';

/** What a list endpoint asks for: a page number (offset paging) or an opaque cursor (keyset paging). */
export interface PageRequest {
  page: number;
  limit: number;
  /** When present, the page continues after this cursor and `page` is only echoed back. */
  cursor?: string | undefined;
}

export interface Page<T> {
  data: T[];
  pagination: {
    page: number;
    limit: number;
    total: number;
    hasMore: boolean;
    /** Opaque: base64url of the last row's sort key; null on the last page. */
    nextCursor: string | null;
  };
}

export type CursorValue = string | number;

/** A malformed cursor is the caller's mistake: the API maps this error to a 400 naming `cursor`. */
export class CursorError extends Error {
  override name = 'CursorError';
}

export function encodeCursor(values: readonly CursorValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** What a sort-key value must look like: a safe integer, a u64 decimal string, or text. */
export type CursorKind = 'int' | 'u64' | 'text';

function fits(value: unknown, kind: CursorKind): boolean {
  if (kind === 'int') return typeof value === 'number' && Number.isSafeInteger(value);
  if (kind === 'u64') return typeof value === 'string' && /^[0-9]{1,20}$/.test(value);
  return typeof value === 'string' && value.length <= 1024 && !value.includes('\u0000');
}

/**
 * Decodes a cursor made by encodeCursor for keys of these kinds; throws CursorError otherwise, so
 * that a forged cursor is a 400 and never reaches Postgres as a value of the wrong type.
 */
export function decodeCursor(cursor: string, kinds: readonly CursorKind[]): CursorValue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new CursorError('cursor is not a cursor this API issued');
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== kinds.length ||
    !parsed.every((v, i) => fits(v, kinds[i] ?? 'text'))
  ) {
    throw new CursorError('cursor is not a cursor this API issued');
  }
  return parsed as CursorValue[];
}

export interface SortKey {
  /** SQL expression of the key, e.g. sql.ref('l.listed_version'). */
  expr: RawBuilder<unknown>;
  dir: 'asc' | 'desc';
  kind: CursorKind;
}

export function kindsOf(keys: readonly SortKey[]): CursorKind[] {
  return keys.map((k) => k.kind);
}

/**
 * "Rows after this key" for a sort that may mix directions:
 * (k1 > v1) OR (k1 = v1 AND k2 > v2) OR ... with < for descending keys. Each leading term is a
 * range condition on the sort index, so a deep page costs what the first page costs.
 */
export function keysetAfter(keys: readonly SortKey[], values: readonly CursorValue[]): RawBuilder<boolean> {
  const terms = keys.map((key, i) => {
    const equalities = keys.slice(0, i).map((k, j) => sql`${k.expr} = ${values[j]}`);
    const op = key.dir === 'asc' ? sql`>` : sql`<`;
    return sql`(${sql.join([...equalities, sql`${key.expr} ${op} ${values[i]}`], sql` AND `)})`;
  });
  return sql<boolean>`(${sql.join(terms, sql` OR `)})`;
}

/** Rows to skip: none with a cursor (the key does the skipping), else (page - 1) * limit. */
export function offsetOf(request: PageRequest): number {
  return request.cursor ? 0 : (request.page - 1) * request.limit;
}

/**
 * Builds the envelope from limit + 1 fetched rows: the extra row only says that there is more.
 * `keyOf` gives the sort key of a row, which becomes the next cursor.
 */
export function toPage<R, T>(
  rows: R[],
  request: PageRequest,
  total: number,
  keyOf: (row: R) => CursorValue[],
  map: (row: R) => T,
): Page<T> {
  const pageRows = rows.slice(0, request.limit);
  const last = pageRows[pageRows.length - 1];
  const hasMore = rows.length > request.limit;
  return {
    data: pageRows.map(map),
    pagination: {
      page: request.page,
      limit: request.limit,
      total,
      hasMore,
      nextCursor: hasMore && last !== undefined ? encodeCursor(keyOf(last)) : null,
    },
  };
}

export function emptyPage<T>(request: PageRequest): Page<T> {
  return {
    data: [],
    pagination: { page: request.page, limit: request.limit, total: 0, hasMore: false, nextCursor: null },
  };
}

/** timestamptz → ISO-8601 UTC; null stays null. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** The network's native coin; a listing with no coin type recorded is priced in it. */
export const NATIVE_COIN = '0x1::aptos_coin::AptosCoin';
/** APT as a coin type and as its paired fungible-asset metadata address: both count as native. */
const NATIVE_COINS = [NATIVE_COIN, '0x000000000000000000000000000000000000000000000000000000000000000a'];

/** `column` is the native coin (NULL included: most marketplace configs carry no coin field). */
export function nativeCoin(column: string): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(column)} IS NULL OR ${sql.ref(column)} = ANY(${NATIVE_COINS}::text[]))`;
}
