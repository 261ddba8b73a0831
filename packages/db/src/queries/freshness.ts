import { sql } from 'kysely';
import type { Db } from '../database';
import { executePrepared } from '../prepared';

/** What an answer reflects: the newest committed chain version, its block time, and the chain tip. */
export interface Freshness {
  /** Highest version any indexer has committed; null before the first batch. */
  indexedVersion: number | null;
  /** Block time of that version (the main follower's checkpoint). */
  indexedAt: Date | null;
  /**
   * Newest version the indexer has seen at its source, never below indexedVersion (a reading taken
   * before the indexer read on is raised to what it has indexed); null when no indexer has reported one.
   */
  tipVersion: number | null;
  /** When the indexer last looked at the tip. */
  tipSeenAt: Date | null;
}

/**
 * The tables whose writes are also counted per collection (`read_collection_versions`, migrations
 * 2026-12-01T1000, 2026-12-05T1000, 2026-12-06T1000, 2026-12-08T1000, 2026-12-08T1100, 2026-12-16T1000, 2026-12-17T1000): a collection page may key its answer on its
 * collection's counters of these.
 */
export const COLLECTION_VERSIONED_TABLES = [
  'collections',
  'collections:identity',
  'tokens',
  'token_rarity',
  'collection_rarity_totals',
  'collection_holdings',
  'listings',
  'token_offers',
  'collection_offers',
  'collection_trait_totals',
  'marketplace_activities',
  'collection_snapshots',
  'lootboxes',
  'token_ownerships',
  'collection_floor_changes',
  'token_activities',
  'token_attributes',
  'trait_value_counts',
  'trait_value_floors',
  'metadata_documents',
] as const;
export type CollectionVersionedTable = (typeof COLLECTION_VERSIONED_TABLES)[number];

/**
 * Write counters of part of a table's writes, by the table they count (migration 2026-12-14T1100,
 * functions/bump_collection_identity_version.sql): 'collections:identity' moves for a collection's
 * every write but those of the columns that move with its tokens (`COLLECTION_COUNT_COLUMNS`). A
 * cached route whose statements read none of those columns names it instead of the table.
 */
export const PARTIAL_COUNTERS = { 'collections:identity': 'collections' } as const;
export type PartialCounter = keyof typeof PARTIAL_COUNTERS;

/** The columns of `collections` that 'collections:identity' does not count. */
export const COLLECTION_COUNT_COLUMNS = [
  'current_supply',
  'total_minted',
  'owner_count',
  'last_transaction_version',
] as const;

/**
 * The tables whose writes are also counted per wallet bucket (migrations 2026-12-07T1000 and
 * 2026-12-15T1000, functions/bump_wallet_version.sql): a wallet's page may key its answer on its
 * wallet's counters of these, read by the wallet columns the function names (an activity's buyer
 * or seller, an offer's buyer, a listing's seller, an ownership's owner); `tokens` by the token ids
 * of the wallet's ownership rows and listings (functions/bump_wallet_tokens_version.sql).
 */
export const WALLET_VERSIONED_TABLES = [
  'marketplace_activities',
  'token_offers',
  'collection_offers',
  'listings',
  'token_ownerships',
  'tokens',
] as const;
export type WalletVersionedTable = (typeof WALLET_VERSIONED_TABLES)[number];

/**
 * The tables whose writes are also counted per lootbox, under its id and under its (creator,
 * collection name) pair (migrations 2026-12-14T1000 and T1100, functions/bump_lootbox_version.sql):
 * a lootbox's page may key its answer on that lootbox's counters of these, read by its `lootbox_id`
 * (for `lootboxes` also by the pair; a token document by its token's).
 */
export const LOOTBOX_VERSIONED_TABLES = [
  'lootboxes',
  'lootbox_tiers',
  'lootbox_purchases',
  'lootbox_revenue_days',
  'tokens',
  'metadata_documents',
] as const;
export type LootboxVersionedTable = (typeof LOOTBOX_VERSIONED_TABLES)[number];

/** A collection asked for by its (creator, name) pair, as the collection pages are. */
export interface CollectionPair {
  creator: string;
  name: string;
}

/** A collection asked for by its id, as the analytics routes may be. */
export interface CollectionIdSelector {
  id: string;
}

/** A wallet a page is about (its long-form address). */
export interface WalletSelector {
  wallet: string;
}

/** A token a page is about, by its id: its page keys on its collection's counters. */
export interface TokenSelector {
  token: string;
}

/**
 * A lootbox a page is about: its id (`{ lootbox: { id } }`) or its (creator, collection name) pair.
 * Its counters need no resolving: the triggers count under both.
 */
export interface LootboxSelector {
  lootbox: { id: number } | { creator: string; name: string };
}

/** How a request names what its answer is about: a collection by pair or by id, a token, a wallet or a lootbox. */
export type ScopeSelector =
  | CollectionPair
  | CollectionIdSelector
  | WalletSelector
  | TokenSelector
  | LootboxSelector;

/** The counter id of a lootbox's scope in read_collection_versions (functions/bump_lootbox_version.sql). */
export function lootboxScopeId(selector: LootboxSelector): string {
  const l = selector.lootbox;
  return 'id' in l ? `lootbox:${l.id}` : `lootbox:${l.creator}/${l.name}`;
}

/** What a reading found for one selector. */
export interface ReadScope {
  /**
   * The collections that have the pair now, sorted; for an id, that id; for a token, its stored
   * collection (none for a token not stored); for a wallet, its bucket's counter id.
   */
  ids: string[];
  /** Write counter of the pair itself: moves whenever a collection takes, keeps or leaves it ('0' for an id). */
  pairVersion: string;
  /** Per id, per table: that collection's (or wallet bucket's) write counter (absent: '0'). */
  versions: Map<string, Record<string, string>>;
}

/**
 * What the API reads, in one round trip: the freshness figures and the write counters of the
 * stored data (`read_versions`, bumped by triggers in every writing transaction, whether the
 * indexer's, the worker's or an operator's). Equal counters mean equal data; they only grow. One
 * reading serves the freshness headers and the response cache, so they always describe the same state.
 *
 * - `version`: the highest indexed version and the sum of every table's counter (one number for
 *   all the data: what the total-count cache keys by).
 * - `tables`: each table's counter (the sum of its rows); a table never written is absent (0).
 * - `all`: per collection-versioned table, the counter of the pseudo-collection '*' (TRUNCATE, bulk
 *   rewrites): part of every collection's key.
 * - `scopes`: per selector the reading was asked about (`selectorKey`): for a (creator, name) pair
 *   the collections that have it and their counters, for an id that collection's counters, for a
 *   token its collection's, for a wallet its bucket's counters.
 */
export interface ReadState {
  version: string;
  tables: Readonly<Record<string, string>>;
  all: Readonly<Record<string, string>>;
  scopes: ReadonlyMap<string, ReadScope>;
  freshness: Freshness;
}

/** The key of a pair in `ReadState.scopes`, and its id in `read_collection_versions` (addresses have no '/'). */
export function pairKey(pair: CollectionPair): string {
  return `${pair.creator}/${pair.name}`;
}

/**
 * The key of a selector in `ReadState.scopes`: a pair's `pairKey`, an id itself (no collection id
 * has a '/', so the two never meet), a wallet `wallet=<address>`, a token `token=<id>`, a lootbox
 * its counter id (`lootbox:<id>` or `lootbox:<creator>/<name>`, lootboxScopeId).
 */
export function selectorKey(selector: ScopeSelector): string {
  if ('wallet' in selector) return `wallet=${selector.wallet}`;
  if ('lootbox' in selector) return lootboxScopeId(selector);
  if ('token' in selector) return `token=${selector.token}`;
  return 'id' in selector ? selector.id : pairKey(selector);
}

interface ReadStateRow {
  read_version: string;
  tables: Record<string, string> | null;
  resolved: [number, string][] | null;
  /** The bucket id of each wallet, in the order given. */
  buckets: string[] | null;
  /** [position, collection id] of each token stored, by its position among the tokens given. */
  token_collections: [number, string][] | null;
  scoped: [string, string, string][] | null;
  indexed_version: number | null;
  indexed_at_ms: number | null;
  tip_version: number | null;
  tip_seen_at_ms: number | null;
}

/**
 * A prepared statement (executePrepared): the API takes a reading per few cached answers, and
 * planning its lookups cost Postgres more than running them (0.29 ms a reading sent as text,
 * 0.09 ms prepared, pgbench on one connection; `SELECT 1` 0.04 ms). Times come back as epoch
 * milliseconds (exact: `extract` is numeric), a number parse for the client instead of a date parse.
 *
 * `selectors`: the collections (by pair or id) and the wallets the requests sharing this reading ask about.
 * Resolving the pairs here (by the same `collections (creator_address, collection_name)` equality
 * the pages use) and reading their counters costs no round trip of its own; without selectors
 * those parts read nothing but the '*' rows.
 */
export async function readState(db: Db, selectors: readonly ScopeSelector[] = []): Promise<ReadState> {
  const pairs = selectors.filter((s): s is CollectionPair => 'creator' in s);
  // An id needs no resolving: a collection that does not exist answers 404, which is never cached.
  const direct = selectors.flatMap((s) => ('id' in s ? [s.id] : []));
  // A wallet's counters are its bucket's (functions/bump_wallet_version.sql computes the same id).
  const wallets = selectors.flatMap((s) => ('wallet' in s ? [s.wallet] : []));
  // A token's counters are its collection's, which a token never changes.
  const tokens = selectors.flatMap((s) => ('token' in s ? [s.token] : []));
  // A lootbox's counters are under ids computed from the request, as a wallet bucket's are.
  const lootboxes = selectors.flatMap((s) => ('lootbox' in s ? [lootboxScopeId(s)] : []));
  const [row] = await executePrepared(
    db,
    sql<ReadStateRow>`
      WITH tv AS (SELECT source, sum(version) AS v FROM read_versions GROUP BY source),
      pairs AS (
        SELECT p.creator, p.name, p.i FROM unnest(${pairs.map((p) => p.creator)}::text[], ${pairs.map((p) => p.name)}::text[])
          WITH ORDINALITY AS p(creator, name, i)),
      ids AS (
        SELECT p.i, c.collection_id FROM pairs p
          JOIN collections c ON c.creator_address = p.creator AND c.collection_name = p.name),
      buckets AS (
        SELECT w.i, 'wallet:' || (hashtext(w.address) & 65535) AS id
          FROM unnest(${wallets}::text[]) WITH ORDINALITY AS w(address, i)),
      toks AS (
        SELECT k.i, t.collection_id FROM unnest(${tokens}::text[]) WITH ORDINALITY AS k(id, i)
          JOIN tokens t ON t.token_data_id = k.id),
      cv AS (
        SELECT collection_id, source, sum(version) AS v FROM read_collection_versions
         WHERE collection_id = ANY (ARRAY(
           SELECT collection_id FROM ids UNION ALL SELECT '*' UNION ALL SELECT creator || '/' || name FROM pairs
           UNION ALL SELECT unnest(${[...direct, ...lootboxes]}::text[]) UNION ALL SELECT id FROM buckets
           UNION ALL SELECT collection_id FROM toks))
         GROUP BY collection_id, source)
      SELECT
        coalesce(cp.indexed_version, -1)::text || '.' || (SELECT coalesce(sum(v), 0) FROM tv)::text AS read_version,
        (SELECT json_object_agg(source, v::text) FROM tv) AS tables,
        (SELECT json_agg(json_build_array(i, collection_id)) FROM ids) AS resolved,
        (SELECT json_agg(id ORDER BY i) FROM buckets) AS buckets,
        (SELECT json_agg(json_build_array(i, collection_id)) FROM toks) AS token_collections,
        (SELECT json_agg(json_build_array(collection_id, source, v::text)) FROM cv) AS scoped,
        cp.indexed_version,
        (SELECT floor(extract(epoch FROM last_timestamp) * 1000)::float8
           FROM indexer_checkpoints ORDER BY last_version DESC LIMIT 1) AS indexed_at_ms,
        -- A tip reading older than the index is raised to it: the chain has at least what was indexed.
        CASE WHEN t.version IS NOT NULL THEN GREATEST(t.version, cp.indexed_version) END AS tip_version,
        floor(extract(epoch FROM t.seen_at) * 1000)::float8 AS tip_seen_at_ms
      FROM (SELECT max(last_version) AS indexed_version FROM indexer_checkpoints) AS cp
      LEFT JOIN chain_tip t ON t.id = 1`,
  );
  const date = (ms: number | null | undefined) => (ms == null ? null : new Date(ms));
  const counters = new Map<string, Record<string, string>>();
  for (const [id, source, version] of row?.scoped ?? []) {
    const of = counters.get(id) ?? {};
    of[source] = version;
    counters.set(id, of);
  }
  // The ids of each pair, by its position in `pairs` (WITH ORDINALITY counts from 1).
  const resolved = new Map<number, string[]>();
  for (const [i, id] of row?.resolved ?? []) {
    const ids = resolved.get(Number(i)) ?? [];
    ids.push(id);
    resolved.set(Number(i), ids);
  }
  const scopes = new Map<string, ReadScope>();
  pairs.forEach((pair, index) => {
    const key = pairKey(pair);
    const ids = (resolved.get(index + 1) ?? []).sort();
    const versions = new Map<string, Record<string, string>>();
    for (const id of ids) versions.set(id, counters.get(id) ?? {});
    scopes.set(key, { ids, pairVersion: counters.get(key)?.['collections:name'] ?? '0', versions });
  });
  const scopeOf = (id: string): ReadScope => ({
    ids: [id],
    pairVersion: '0',
    versions: new Map([[id, counters.get(id) ?? {}]]),
  });
  for (const id of [...direct, ...lootboxes]) scopes.set(id, scopeOf(id));
  const tokenCollections = new Map((row?.token_collections ?? []).map(([i, id]) => [Number(i), id]));
  tokens.forEach((token, index) => {
    const id = tokenCollections.get(index + 1);
    // A token not stored names no collection: its page keys on the global counters.
    const scope = id === undefined ? { ids: [], pairVersion: '0', versions: new Map() } : scopeOf(id);
    scopes.set(selectorKey({ token }), scope);
  });
  wallets.forEach((wallet, index) => {
    const bucket = row?.buckets?.[index];
    if (bucket !== undefined) scopes.set(selectorKey({ wallet }), scopeOf(bucket));
  });
  return {
    version: row?.read_version ?? '',
    tables: row?.tables ?? {},
    all: counters.get('*') ?? {},
    scopes,
    freshness: {
      indexedVersion: row?.indexed_version ?? null,
      indexedAt: date(row?.indexed_at_ms),
      tipVersion: row?.tip_version ?? null,
      tipSeenAt: date(row?.tip_seen_at_ms),
    },
  };
}

/** The checkpoint and the tip together, as /ready and the analytics bodies need. */
export async function readFreshness(db: Db): Promise<Freshness> {
  return (await readState(db)).freshness;
}

/** Called by the indexer each time it looks at the source's tip; a version never goes back. */
export async function recordChainTip(db: Db, version: number): Promise<void> {
  await db
    .insertInto('chain_tip')
    .values({ id: 1, version })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        version: sql<number>`GREATEST(chain_tip.version, excluded.version)`,
        seen_at: sql<Date>`now()`,
      }),
    )
    .execute();
}

export interface Lag {
  versions: number | null;
  seconds: number | null;
}

/**
 * How far behind the chain the indexed data is. Versions: tip − indexed. Seconds: zero when caught
 * up, else the age of the newest indexed block (a live chain's tip is "now"); and never less than
 * the age of the tip reading itself, so a stopped indexer shows a growing lag instead of a frozen one.
 * Null when no indexer has reported a tip (nothing to compare with).
 */
export function lagOf(f: Freshness, now: Date, tipStaleAfterMs = 30_000): Lag {
  if (f.tipVersion === null || f.tipSeenAt === null) return { versions: null, seconds: null };
  const versions = Math.max(0, f.tipVersion - (f.indexedVersion ?? -1));
  const behind = versions === 0 || f.indexedAt === null ? 0 : now.getTime() - f.indexedAt.getTime();
  const tipAge = now.getTime() - f.tipSeenAt.getTime();
  const stale = tipAge > tipStaleAfterMs ? tipAge : 0;
  return { versions, seconds: Math.max(0, Math.round(Math.max(behind, stale) / 1000)) };
}

/** The four figures of the chain-lag metrics, from one freshness reading. */
export function chainLagOf(f: Freshness, now: Date) {
  const lag = lagOf(f, now);
  return {
    indexedVersion: f.indexedVersion,
    tipVersion: f.tipVersion,
    lagVersions: lag.versions,
    lagSeconds: lag.seconds,
  };
}
