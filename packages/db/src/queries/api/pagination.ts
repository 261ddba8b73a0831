import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import { executePrepared } from '../../prepared';

/** What a list endpoint asks for: a page number (offset paging) or an opaque cursor (keyset paging). */
export interface PageRequest {
  page: number;
  limit: number;
  /** When present, the page continues after this cursor and `page` is only echoed back. */
  cursor?: string | undefined;
  /**
   * The read version the caller took before reading (see readState): totals are counted once per
   * version and filter, not once per page. Without it every page counts.
   */
  version?: string | undefined;
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

/**
 * Builds the envelope from limit + 1 fetched rows: the extra row only says that there is more.
 * `keyOf` gives the sort key of a row, which becomes the next cursor.
 */
function toPage<R, T>(
  rows: R[],
  request: PageRequest,
  total: number,
  keyOf: (row: R) => CursorValue[],
  map: (row: R, index: number) => T,
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

/** `keys` as an ORDER BY list. */
export function orderOf(keys: readonly SortKey[]): RawBuilder<unknown> {
  return sql.join(
    keys.map((k) => sql`${k.expr} ${sql.raw(k.dir)}`),
    sql`, `,
  );
}

/**
 * The collections a per-collection list reads: their ids, or the (creator, name) pair that names
 * them, resolved inside the list's own statements (one round trip instead of two).
 */
export type CollectionSet = readonly string[] | { creator: string; name: string };

/** The ids of `set`, as an array expression (`column = ANY(...)` keeps the index plans of a literal array). */
export function collectionIdArray(set: CollectionSet): RawBuilder<string[]> {
  return 'creator' in set
    ? sql<string[]>`ARRAY(SELECT collection_id FROM collections
                           WHERE creator_address = ${set.creator} AND collection_name = ${set.name})`
    : sql<string[]>`${set}::text[]`;
}

/**
 * Rows of several collections in one page order without sorting all of them: `branch` reads one
 * collection's rows (its parameter is that collection's id) in the page order, cut at the page's
 * reach, so it is a range of that collection's ordered index; the outer statement orders their
 * union and cuts the page. `collection_id = ANY(ids)` cannot be read in order from a
 * (collection_id, ...) index and made a page read, and sort, every row of the collection.
 */
export function perCollection(
  collections: CollectionSet,
  branch: (collectionId: RawBuilder<string>) => RawBuilder<unknown>,
): RawBuilder<unknown> {
  return sql`unnest(${collectionIdArray(collections)}) AS per_collection(id) CROSS JOIN LATERAL (${branch(sql`per_collection.id`)})`;
}

/** A sort key of a paged list, with the output column that holds its value in each row. */
export interface PageKey<R> extends SortKey {
  field: keyof R & string;
  /** The key's value when the column is null (the expression coalesces to the same). */
  ifNull?: CursorValue;
}

/** What the rows statement of a page is given, so that it never assembles paging by hand. */
export interface PageParts {
  /** `keys` order, for ORDER BY. */
  order: RawBuilder<unknown>;
  /**
   * "After the cursor" (true without one). Pass the same keys under another alias for each branch
   * of a union: the cursor's values apply to each.
   */
  after(keys?: readonly SortKey[]): RawBuilder<boolean>;
  /** `LIMIT limit + 1 OFFSET …`: the extra row only says that there is more. */
  window: RawBuilder<unknown>;
  /** Rows a union branch must read for this page: offset + limit + 1. */
  reach: number;
}

export interface PagedList<R, T> {
  keys: readonly PageKey<R>[];
  rows(parts: PageParts): RawBuilder<R>;
  /**
   * A statement whose one row has `total`: every row the filters match, whatever the page. A list
   * whose rows move with the clock (`clock`) also gives `until`: when the first of them stops
   * matching (null: none will before the next write).
   */
  count: RawBuilder<{ total: number; until?: Date | null }>;
  /**
   * Every row `count` counts, as a statement, for a list whose rows and count would read the same
   * rows (a search's matches): the page's statement then reads them once, materialized as
   * `page_matches` (which `rows` reads from), and counts them there instead of running `count`.
   * `count` still names the total for the totals kept per read version.
   */
  matches?: RawBuilder<unknown>;
  /**
   * The "now" the statements compare with, for a list whose rows stop matching as time passes and
   * never start to (live bids): its total is then kept per read version apart from that parameter,
   * and reused while now is before `until`.
   */
  now?: Date;
  /** `index`: the row's place on this page (0 for the first). */
  map(row: R, index: number): T;
  /** Lists paged by number only (a short ranking): no cursor is issued or read. */
  cursor?: boolean;
  /**
   * Run as a prepared statement (executePrepared): for a list whose best plan does not depend on
   * its values (one token's rows by its id), planned once per connection instead of per request.
   */
  prepared?: boolean;
}

/**
 * Totals counted per read version: equal versions mean equal data (readState), so a total is the
 * same for every page of one filter until something is written. Per database handle (two databases
 * may stand at the same version string), kept for the newest version seen only (a new version drops
 * the rest), and bounded.
 */
interface Total {
  total: number;
  /** Epoch ms when the total stops being true at this version; null: not before a write. */
  until: number | null;
}
const totals = new WeakMap<Db, { version: string; byStatement: Map<string, Total> }>();
const MAX_TOTALS = 10_000;

/** Where `count`'s total at `version` is kept: its statement and parameters, the clock aside. */
function totalKey(db: Db, count: PagedList<unknown, unknown>['count'], now: Date | undefined): string {
  const compiled = count.compile(db);
  // The clock is not part of what the total counts: the same total holds until `until`.
  const parameters = compiled.parameters.map((p) => (now !== undefined && p === now ? null : p));
  return `${compiled.sql}\u0000${JSON.stringify(parameters)}`;
}

/** The total counted at `version` under `key`, while it still holds at `now`. */
function knownTotal(db: Db, version: string, key: string, now: Date | undefined): Total | undefined {
  const known = totals.get(db);
  const cached = known?.version === version ? known.byStatement.get(key) : undefined;
  return cached && (cached.until === null || (now?.getTime() ?? 0) < cached.until) ? cached : undefined;
}

function rememberTotal(db: Db, version: string, key: string, total: Total): void {
  let known = totals.get(db);
  if (!known || known.version !== version || known.byStatement.size >= MAX_TOTALS) {
    known = { version, byStatement: new Map() };
    totals.set(db, known);
  }
  known.byStatement.set(key, total);
}

/** A count statement's one row as a Total (also when it comes as JSON, inside a page's statement). */
function totalOf(row: { total?: unknown; until?: unknown } | undefined): Total {
  const until = row?.until;
  return {
    total: Number(row?.total ?? 0),
    until: until ? new Date(until as string | Date).getTime() : null,
  };
}

/** The total `count` gives at `version`: counted once per version and statement (the clock aside). */
export async function countOf(
  db: Db,
  count: PagedList<unknown, unknown>['count'],
  version: string | undefined,
  now: Date | undefined,
): Promise<Total> {
  const run = async (): Promise<Total> => totalOf((await count.execute(db)).rows[0]);
  if (version === undefined) return run();
  const key = totalKey(db, count, now);
  const cached = knownTotal(db, version, key, now);
  if (cached) return cached;
  const total = await run();
  rememberTotal(db, version, key, total);
  return total;
}

/** The output columns a page statement adds to the list's rows (names no list uses). */
const PAGE_TOTAL = 'mdq_page_total';
const PAGE_ROW = 'mdq_page_row';

/** A page's statement, prepared when the list says its plan does not depend on its values. */
async function run<T>(db: Db, list: { prepared?: boolean | undefined }, query: RawBuilder<T>): Promise<T[]> {
  return list.prepared ? executePrepared(db, query) : (await query.execute(db)).rows;
}

/** The `page_matches` a list's rows read from, when it has them. */
function withMatches(list: { matches?: RawBuilder<unknown> | undefined }): RawBuilder<unknown> {
  return list.matches ? sql`WITH page_matches AS MATERIALIZED (${list.matches})` : sql``;
}

/**
 * The rows and the total of a page in one statement: one round trip and one pooled connection per
 * answer instead of two (sent at once they were two statements, two connections and twice the
 * protocol's writes and reads, which on a miss weigh more than either statement). The count is the
 * outer row, so an empty page (past the end) still says the total. The rows keep their statement's
 * order: a join with no join clause (`ON true`) can only be a nested loop, which emits its inner
 * rows, in order, for its one outer row (the page tests fail on any other order).
 */
async function rowsWithTotal<R>(
  db: Db,
  list: PagedList<R, unknown>,
  parts: PageParts,
): Promise<{ rows: R[]; total: Total }> {
  const count = list.matches ? sql`SELECT count(*)::int AS total FROM page_matches` : list.count;
  const rows = await run(
    db,
    list,
    sql<R & { [PAGE_TOTAL]: Record<string, unknown>; [PAGE_ROW]: boolean | null }>`
    ${withMatches(list)}
    SELECT page_rows.*, page_count.total AS ${sql.ref(PAGE_TOTAL)}
      FROM (SELECT row_to_json(c) AS total FROM (${count}) c) page_count
      LEFT JOIN LATERAL (SELECT r.*, true AS ${sql.ref(PAGE_ROW)} FROM (${list.rows(parts)}) r) page_rows ON true`,
  );
  // The two added columns stay on the rows: `map` reads the columns it names, never the rest.
  return {
    rows: rows.filter((row) => row[PAGE_ROW] === true),
    total: totalOf(rows[0]?.[PAGE_TOTAL]),
  };
}

/**
 * The one way a list is paged (docs/API.md): `page` and `limit`, or `cursor` (keyset: the rows
 * after the previous page's last sort key, so page 1,000 costs what page 1 costs), `limit + 1` rows
 * fetched to know whether there is more, the total from `count` (once per read version), and the
 * next cursor made from the sort-key columns of the last row. A forged cursor is a CursorError.
 */
export async function fetchPage<R, T>(db: Db, list: PagedList<R, T>, request: PageRequest): Promise<Page<T>> {
  return (await fetchPageUntil(db, list, request)).page;
}

/**
 * fetchPage for a list that moves with the clock (`list.now`): also says until when the page is
 * true at this read version (epoch ms; null: until the next write), for the response cache.
 */
export async function fetchPageUntil<R, T>(
  db: Db,
  list: PagedList<R, T>,
  request: PageRequest,
): Promise<{ page: Page<T>; until: number | null }> {
  const keyed = list.cursor !== false;
  const values = keyed && request.cursor ? decodeCursor(request.cursor, kindsOf(list.keys)) : null;
  const offset = values ? 0 : (request.page - 1) * request.limit;
  const parts: PageParts = {
    order: orderOf(list.keys),
    after: (keys = list.keys) => (values ? keysetAfter(keys, values) : sql<boolean>`true`),
    window: sql`LIMIT ${request.limit + 1} OFFSET ${offset}`,
    reach: offset + request.limit + 1,
  };
  // A total already counted at this read version (another page or sort of the same filter) leaves
  // the rows alone to read; otherwise the rows and the total come in one statement.
  const kept =
    request.version === undefined
      ? undefined
      : { version: request.version, key: totalKey(db, list.count, list.now) };
  const known = kept && knownTotal(db, kept.version, kept.key, list.now);
  let rows: R[];
  let counted: Total;
  if (known) {
    rows = await run(db, list, sql<R>`${withMatches(list)} ${list.rows(parts)}`);
    counted = known;
  } else {
    ({ rows, total: counted } = await rowsWithTotal(db, list, parts));
    if (kept) rememberTotal(db, kept.version, kept.key, counted);
  }
  const { total, until } = counted;
  const keyOf = (row: R): CursorValue[] =>
    list.keys.map((k) => (row[k.field] ?? k.ifNull ?? null) as CursorValue);
  const page = toPage(rows, request, total, keyOf, list.map);
  if (!keyed) page.pagination.nextCursor = null;
  return { page, until };
}

/** timestamptz → ISO-8601 UTC; null stays null. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
