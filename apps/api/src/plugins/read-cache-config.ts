import type {
  CollectionVersionedTable,
  Database,
  LootboxVersionedTable,
  PartialCounter,
  WalletVersionedTable,
} from '@mdq/db';

/**
 * What a cached route reads, which its answers are keyed by (see registerResponseCache).
 *
 * - `tables`: every table the route's statements read (test/read-tables.test.ts checks them
 *   against the relations of each statement's plan), or for a table of PARTIAL_COUNTERS read only
 *   in the part its counter counts, that counter (`collections:identity` for statements that read
 *   no COLLECTION_COUNT_COLUMNS: the test checks that too, in each plan's columns). A body that
 *   shows checkpoint figures names `indexer_checkpoints`, with one exception: a body's own
 *   `freshness` field (the indexed version and its time), taken from the very reading the answer
 *   is keyed by (`request.readState`), as the
 *   analytics routes' bodies carry it. That figure says the version the answer was computed at and
 *   may trail on a later hit (whose `x-mdq-indexed-version` header is current), which stays true
 *   because no table the answer read has changed; naming the checkpoint, which moves every block,
 *   would retire such answers each block. A body that shows other checkpoint figures (read by its
 *   own statements) still names it.
 * - `collection`: for a page asked about one collection by its (creator, collection) query pair, or
 *   by its `collectionId` where `byId` says the route takes one (and resolves it before the pair):
 *   the tables its statements read only by `collection_id` of that collection (or the pair's
 *   collections), each a table of COLLECTION_VERSIONED_TABLES and among `tables`. Those key on the
 *   collection's counters instead of the table's: a write to another collection leaves the page
 *   cached. A request that names its collection otherwise (a lootboxId) keys on the global ones.
 *   `byToken`: the page is about one token, asked by its `tokenId`; the reading resolves the token's
 *   stored collection, whose counters key the tables it names (a token not stored: the global ones).
 *   A token's own row, read by that id, is of that collection by definition.
 * - `wallet`: for a page asked about one wallet (its `address` query parameter): the tables its
 *   statements read only by that wallet's column (WALLET_VERSIONED_TABLES, and among `tables`).
 *   Those key on the wallet's bucket counters: a write that names other wallets leaves it cached.
 * - `lootbox`: for a page asked about one lootbox, by its `lootboxId` or by its (creator, collection)
 *   query pair: the tables its statements read only by that lootbox's `lootbox_id` (or, for
 *   `lootboxes`, by the pair), each of LOOTBOX_VERSIONED_TABLES and among `tables`. Those key on the
 *   lootbox's counters (under its id or its pair, as asked): a purchase or reveal of another lootbox
 *   leaves it cached.
 *   A route has one scope: `collection`, `wallet` or `lootbox`.
 * - `optional`: tables of `tables` its statements read only when the query parameter `param` is
 *   given and not `false` (token-balances' rarity, read for `serviceInfo=true`): a request without
 *   it keys on the others alone (`tablesAsked`), so a write to those tables leaves it cached.
 */
export interface ReadCacheConfig {
  tables: readonly (keyof Database | PartialCounter)[];
  collection?: { tables: readonly CollectionVersionedTable[]; byId?: true; byToken?: true };
  wallet?: { tables: readonly WalletVersionedTable[] };
  lootbox?: { tables: readonly LootboxVersionedTable[] };
  optional?: { param: string; tables: readonly (keyof Database)[] };
}

/** `config.tables` less its optional ones, computed once per route. */
const withoutOptional = new WeakMap<ReadCacheConfig, readonly string[]>();

/**
 * The tables a request's answer reads: every table of `config`, less the optional ones when the
 * request leaves their parameter out or sets it `false`. `query` is the parsed query string, before
 * validation (strings) or after (coerced): any other value counts as asking for them.
 */
export function tablesAsked(config: ReadCacheConfig, query: unknown): readonly string[] {
  const optional = config.optional;
  if (!optional) return config.tables;
  const value = (query as Record<string, unknown> | undefined)?.[optional.param];
  if (value !== undefined && value !== false && value !== 'false') return config.tables;
  let tables = withoutOptional.get(config);
  if (!tables) {
    tables = config.tables.filter((t) => !(optional.tables as readonly string[]).includes(t));
    withoutOptional.set(config, tables);
  }
  return tables;
}

/** The tables `config` keys on its scope's counters (its collection's, its wallet's or its lootbox's). */
export const scopedTables = (config: ReadCacheConfig): readonly string[] | undefined =>
  config.collection?.tables ?? config.wallet?.tables ?? config.lootbox?.tables;
