import { isAddress, normalizeAddress } from '@mdq/chain/address';
import {
  COLLECTION_VERSIONED_TABLES,
  type CollectionVersionedTable,
  type Database,
  LOOTBOX_VERSIONED_TABLES,
  type LootboxVersionedTable,
  type PartialCounter,
  type ScopeSelector,
  WALLET_VERSIONED_TABLES,
  type WalletVersionedTable,
} from '@mdq/db';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Cache the route's 200 bodies per URL under the write counters of the tables it reads. Only
     * for routes whose answer is a function of the stored data alone; a route whose answer also
     * moves with the clock sets `request.cacheUntil`.
     */
    readCache?: ReadCacheConfig;
    /**
     * For a route whose answers read different tables per request (the GraphQL endpoint): what
     * one request's answer reads and is told apart by, or undefined for a request not cached.
     */
    readCacheOf?: (request: FastifyRequest) => RequestReadCache | undefined;
  }
  interface FastifyRequest {
    /** requestReadCache's answer for this request (null: not cached), once asked. */
    readCache?: RequestReadCache | null;
  }
}

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

/** The tables each scope's counters count. */
const SCOPED = {
  collection: new Set<string>(COLLECTION_VERSIONED_TABLES),
  wallet: new Set<string>(WALLET_VERSIONED_TABLES),
  lootbox: new Set<string>(LOOTBOX_VERSIONED_TABLES),
};

/** A route's declaration, checked when it is registered: a wrong one would serve stale answers. */
export function checkReadCacheConfig(url: string, config: ReadCacheConfig): void {
  if (config.tables.length === 0) throw new Error(`${url}: readCache names no table`);
  if ([config.collection, config.wallet, config.lootbox].filter(Boolean).length > 1) {
    throw new Error(`${url}: readCache names two scopes`);
  }
  if (config.collection?.byId && config.collection.byToken) {
    throw new Error(`${url}: readCache.collection is asked by id or by token, not both`);
  }
  for (const table of config.optional?.tables ?? []) {
    if (!config.tables.includes(table) || scopedTables(config)?.includes(table)) {
      throw new Error(`${url}: readCache.optional names ${table}, not an unscoped table it reads`);
    }
  }
  for (const scope of ['collection', 'wallet', 'lootbox'] as const) {
    for (const table of config[scope]?.tables ?? []) {
      if (!SCOPED[scope].has(table) || !(config.tables as readonly string[]).includes(table)) {
        throw new Error(`${url}: readCache.${scope} names ${table}, not a ${scope}-versioned table it reads`);
      }
    }
  }
}

/**
 * The wallet (its `address`) a wallet-scoped cached route is asked about, the collection a
 * collection-scoped one is, or the lootbox (its `lootboxId`, else its pair) a lootbox-scoped one
 * is, read before validation (where the reading is taken) the way the handler will see it:
 * addresses in the long form the address hook gives them. `collectionId`, where the route takes it
 * (`collection.byId`), comes first, as the routes resolve it; else the (creator, collection) pair.
 * Absent or malformed: none (the route keys on its tables' global counters, or fails validation
 * and is not cached).
 */
function scopeSelectorOf(request: FastifyRequest, config: ReadCacheConfig): ScopeSelector | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  if (config.wallet) {
    const address = query?.['address'];
    return typeof address === 'string' && isAddress(address)
      ? { wallet: normalizeAddress(address) }
      : undefined;
  }
  if (config.lootbox) {
    // The id as validation will read it: digits only (else the route keys on the global counters).
    const id = query?.['lootboxId'];
    if (id !== undefined) {
      return typeof id === 'string' && /^(0|[1-9][0-9]{0,15})$/.test(id) && Number.isSafeInteger(Number(id))
        ? { lootbox: { id: Number(id) } }
        : undefined;
    }
    const pair = pairOf(query);
    return pair ? { lootbox: pair } : undefined;
  }
  if (!config.collection) return undefined;
  if (config.collection.byToken) {
    const token = query?.['tokenId'];
    return typeof token === 'string' && isAddress(token) ? { token: normalizeAddress(token) } : undefined;
  }
  const id = query?.['collectionId'];
  if (config.collection.byId && id !== undefined) {
    return typeof id === 'string' && isAddress(id) ? { id: normalizeAddress(id) } : undefined;
  }
  return pairOf(query);
}

/** The (creator, collection) query pair, the creator in the long form the address hook gives it. */
function pairOf(query: Record<string, unknown> | undefined): { creator: string; name: string } | undefined {
  const creator = query?.['creator'];
  const name = query?.['collection'];
  if (typeof creator !== 'string' || typeof name !== 'string' || !isAddress(creator)) return undefined;
  return { creator: normalizeAddress(creator), name };
}

/** What one request's answer reads and is cached as: the route's declaration, or a request's own. */
export interface RequestReadCache {
  config: ReadCacheConfig;
  /** The collection, token, wallet or lootbox its scoped tables key on, if asked about one. */
  selector?: ScopeSelector;
  /** What tells this answer from the route's others: the URL, or the route and the request's body. */
  id: string;
}

/**
 * The read cache of `request`, worked out once: a route's `readCache` with the scope the query
 * names, or its `readCacheOf` for the request.
 */
export function requestReadCache(request: FastifyRequest): RequestReadCache | undefined {
  if (request.readCache !== undefined) return request.readCache ?? undefined;
  const { readCache: config, readCacheOf: perRequest } = request.routeOptions.config;
  const cache = config
    ? { config, selector: scopeSelectorOf(request, config), id: request.url }
    : perRequest?.(request);
  request.readCache = cache ?? null;
  return cache;
}
