import { COLLECTION_COUNT_COLUMNS, type Db, PARTIAL_COUNTERS, sql } from '@mdq/db';
import {
  columnsRead,
  explainPlan,
  type RelationScan,
  relationScans,
  scannedFunctions,
  tablesNamedByFunction,
} from '@mdq/db/read';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesAsked } from '../src/plugins/read-cache-config';
import { cachedRoutes, type ReadCacheConfig } from '../src/plugins/response-cache';
import { BUYER, CACHED, COLLECTION, CREATOR, OWNER, seedCachedRoutes, TOKEN } from './support/cached-routes';
import { type ApiHarness, createHarness } from './support/fixtures';

/*
 * A cached answer is keyed by the write counters of the tables its route declares
 * (`config.readCache`): a table the route reads but does not name would let a write to it go
 * unnoticed, and the cache serve a stale body. Every cached route is asked here with data for each
 * of its statements; the app reads through a Kysely instance that records each statement (as the
 * index-plans test does), and each statement's plan (EXPLAIN, its own parameters) names the
 * relations it reads: they must all be declared.
 */

const enc = encodeURIComponent;
/** Every route of CACHED, and the other forms of a route that run other statements. */
const URLS = [
  ...CACHED,
  `/token-balances?address=${OWNER}&greaterThanZeroBalance=true&serviceInfo=true&collection=Cats`,
  `/token-balances?address=${OWNER}&creator=${CREATOR}`,
  '/market/listings-by-collection?lootboxId=7',
  '/market/bids-by-collection?lootboxId=7',
  '/market/listing-cards?minPrice=1&maxPrice=1000',
  `/market/listing-cards?collectionName=Cats&creatorAddress=${CREATOR}`,
  '/market/listing-cards?search=cat',
  '/market/listing-cards?byPopular=true',
  '/market/total-listing-cards?search=cat&minPrice=1',
  `/market/total-listing-cards?collectionName=Cats&creatorAddress=${CREATOR}`,
  `/token/traits?creator=${CREATOR}&collection=Cats&tokenName=${enc('Cat #1')}`,
  '/rankings/top-collections?page=1&limit=1',
  '/rankings/trending-collections?includeFlagged=true',
  '/rankings/by-upcoming',
  `/lootbox-revenue?creator=${CREATOR}&collection=Cats&timeframe=24h`,
  `/lootbox-revenue?creator=${CREATOR}&collection=Cats&timeframe=30d`,
  `/lootbox-revenue?creator=${CREATOR}&collection=Cats&timeframe=all`,
  // A wallet with snapshots (BUYER), and one without (OWNER): a live point, not kept (UNKEPT).
  `/user/inventory-history-data?address=${BUYER}&range=24h`,
  `/user/inventory-history-data?address=${BUYER}&range=all`,
  `/user/inventory-history-data?address=${OWNER}&range=24h`,
  `/user/inventory-history-data?address=${OWNER}&range=30d`,
  // The analytics routes by each selector (the id itself, the pair's lookup, the lootbox's), and a
  // trailing window with a start (the floor at that instant) and without ('all').
  `/collection-stats?collectionId=${COLLECTION}`,
  `/collection-stats?creator=${CREATOR}&collection=Cats&window=all`,
  '/collection-stats?lootboxId=7&window=30d',
  `/collection-history?collectionId=${COLLECTION}&interval=1h`,
  `/collection-history?creator=${CREATOR}&collection=Cats&from=2026-10-01T00:00:00Z&to=2026-11-02T00:00:00Z`,
  '/collection-history?lootboxId=7',
  `/collection-trait-floors?creator=${CREATOR}&collection=Cats&includeFlagged=true`,
  '/collection-trait-floors?lootboxId=7',
  `/collection-top-traders?collectionId=${COLLECTION}&window=all`,
  `/collection-top-traders?creator=${CREATOR}&collection=Cats`,
  '/collection-top-traders?lootboxId=7&window=24h',
];

/**
 * Forms of a cached route whose answer reads more than the route's key names and is therefore never
 * kept (the handler sets `cacheSkip`): each is asked twice here and must be computed twice. A
 * request the route keeps that read the same would fail the declared-tables check instead.
 */
const UNKEPT = new Set([
  `/user/inventory-history-data?address=${OWNER}&range=24h`,
  `/user/inventory-history-data?address=${OWNER}&range=30d`,
]);

/** The route (its full URL, as registered) a request path is answered by. */
function routeOf(routes: ReadonlyMap<string, ReadCacheConfig>, path: string): [string, ReadCacheConfig] {
  const url = `/local/api${path.split('?')[0]}`;
  const config = routes.get(url);
  if (!config) throw new Error(`${path}: no cached route ${url}`);
  return [url, config];
}

/** The relations of `scans` not among `tables` (what a request keys on): what the test reports. */
function undeclared(scans: readonly RelationScan[], tables: readonly string[]): string[] {
  const declared = new Set<string>(tables);
  // A table's own counter counts every write a partial counter of it counts.
  for (const [counter, table] of Object.entries(PARTIAL_COUNTERS))
    if (declared.has(table)) declared.add(counter);
  return [...new Set(scans.map((s) => s.relation))].filter((r) => !declared.has(r)).sort();
}

/**
 * Scans of a collection-scoped table that do not read it by `collection_id` (or, for
 * `collections`, by the (creator, name) pair the key also counts): those rows could belong to
 * another collection, whose writes the page's key does not see. `collection_id = x` is the pair's
 * ids (`per_collection.id`, `ANY($n)`) or the collection of a row of the page's other scoped reads
 * (`r.collection_id`): what the route's SQL states, which a reviewer of the SQL confirms.
 */
function unscopedScans(
  scans: readonly RelationScan[],
  config: ReadCacheConfig,
  token?: string,
): RelationScan[] {
  const scoped = new Set<string>(config.collection?.tables ?? []);
  // A scan recorded under a partial counter is a scan of its table.
  const tableOf = (relation: string) =>
    PARTIAL_COUNTERS[relation as keyof typeof PARTIAL_COUNTERS] ?? relation;
  return scans.filter(
    (s) =>
      (scoped.has(s.relation) || scoped.has(tableOf(s.relation))) &&
      !s.conditions.some(
        (c) =>
          /\bcollection_id\s*=/.test(c) ||
          (tableOf(s.relation) === 'collections' &&
            /creator_address\s*=/.test(c) &&
            /collection_name\s*=/.test(c)) ||
          // A token page's own token row: the collection its key resolves is that row's.
          (token !== undefined && s.relation === 'tokens' && c.includes(`token_data_id = '${token}'`)),
      ),
  );
}

/**
 * How each wallet-scoped table must be read for the bucket counters to count its rows: by the
 * wallet columns functions/bump_wallet_version.sql names (an activity's buyer or seller, an offer's
 * buyer, a listing's seller, an ownership's owner), and a token's row by the token id of another
 * row (functions/bump_wallet_tokens_version.sql counts it for the wallets with an ownership or a
 * listing of it: that the joined row is the page's wallet's is what the route's SQL states, which a
 * reviewer of the SQL confirms, as for a collection's `r.collection_id`).
 */
const WALLET_READS: Record<string, RegExp> = {
  marketplace_activities: /\b(buyer|seller)\s*=/,
  token_offers: /\bbuyer\s*=/,
  collection_offers: /\bbuyer\s*=/,
  listings: /\bseller\s*=/,
  token_ownerships: /\bowner_address\s*=/,
  // The other row's alias may be a set operation's ("*SELECT* 1": the union of held and listed).
  tokens: /\btoken_data_id\s*=\s*(\w+|"[^"]+")\.token_data_id\b/,
};

/**
 * Scans of a wallet-scoped table that do not read it by what the bucket counters count (WALLET_READS):
 * those rows could name only other wallets, whose writes the page's key does not see.
 */
function walletUnscopedScans(scans: readonly RelationScan[], config: ReadCacheConfig): RelationScan[] {
  const scoped = new Set<string>(config.wallet?.tables ?? []);
  const columns = (relation: string) => WALLET_READS[relation] ?? /$^/;
  return scans.filter(
    (s) => scoped.has(s.relation) && !s.conditions.some((c) => columns(s.relation).test(c)),
  );
}

/**
 * Scans of a lootbox-scoped table that do not read it by the lootbox (functions/bump_lootbox_version.sql
 * counts a row under its `lootbox_id`, and a lootbox row under its pair too): those rows could be
 * another lootbox's, whose writes the page's key does not see.
 */
function lootboxUnscopedScans(scans: readonly RelationScan[], config: ReadCacheConfig): RelationScan[] {
  const scoped = new Set<string>(config.lootbox?.tables ?? []);
  return scans.filter(
    (s) =>
      scoped.has(s.relation) &&
      !s.conditions.some(
        (c) =>
          /\blootbox_id\s*=/.test(c) ||
          (s.relation === 'lootboxes' && /creator_address\s*=/.test(c) && /collection_name\s*=/.test(c)) ||
          // A token's document by its token (counted under the token's lootbox), of the page's tokens.
          (s.relation === 'metadata_documents' && /\bsubject_id\s*=\s*\w+\.token_data_id\b/.test(c)),
      ),
  );
}

describe('cached routes declare every table they read', () => {
  let h: ApiHarness;
  const captured: { sql: string; parameters: readonly unknown[] }[] = [];

  beforeAll(async () => {
    h = await createHarness({
      readDb: (db: Db) => {
        const executor = db.getExecutor();
        return db.withPlugin({
          transformQuery(args) {
            captured.push(executor.compileQuery(args.node, args.queryId));
            return args.node;
          },
          transformResult: async (args) => args.result,
        });
      },
    });
    await seedCachedRoutes(h);
    await h.fx.collectionOffer({ id: 'c1', collectionId: COLLECTION, buyer: BUYER, price: '70', version: 3 });
    await h.test.db
      .insertInto('user_inventory_snapshots')
      .values({
        owner_address: BUYER,
        snapshot_at: '2026-01-02T00:00:00Z',
        token_count: 1,
        floor_value: '90',
      })
      .execute();
    await h.fx.tokenOffer({
      id: 'o2',
      tokenId: TOKEN,
      collectionId: COLLECTION,
      buyer: OWNER,
      price: '60',
      version: 3,
    });
  });
  afterAll(() => h?.close());

  /** The scans of every statement the route ran for `path` (not the read-state reading: the cache's own). */
  const scansOf = async (path: string): Promise<RelationScan[]> => {
    captured.length = 0;
    const response = await h.get(path);
    expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
    const statements = captured.splice(0).filter((s) => !s.sql.includes('read_versions'));
    expect(statements.length, path).toBeGreaterThan(0);
    const scans: RelationScan[] = [];
    for (const statement of statements) {
      // Nested loops only: each scan then carries its own join conditions (a hash join keeps them
      // on the join node), as the indexed plans of a loaded database do.
      const plan = await h.test.db.transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_hashjoin = off`.execute(trx);
        await sql`SET LOCAL enable_mergejoin = off`.execute(trx);
        return explainPlan(trx, statement.sql, statement.parameters, { verbose: true });
      });
      // A statement that reads none of a collection's counting columns reads the part of
      // `collections` that 'collections:identity' counts: its scans are recorded under that counter.
      const identityOnly = columnsRead(plan, 'collections', COLLECTION_COUNT_COLUMNS).length === 0;
      scans.push(
        ...relationScans(plan).map((scan) =>
          scan.relation === 'collections' && identityOnly
            ? { ...scan, relation: 'collections:identity' }
            : scan,
        ),
      );
      // A set-returning function's tables are read in its own statement, not in this plan: each
      // table its body names counts as read, with no condition (so not by the page's scope).
      for (const name of scannedFunctions(plan)) {
        for (const relation of await tablesNamedByFunction(h.test.db, name))
          scans.push({ relation, conditions: [] });
      }
    }
    return scans;
  };

  it.each(URLS)('%s', async (path) => {
    const [, config] = routeOf(cachedRoutes(h.app), path);
    const scans = await scansOf(path);
    if (process.env['DUMP_SCANS']) console.log('SCANS', JSON.stringify({ path, scans }));
    const asked = tablesAsked(config, Object.fromEntries(new URL(path, 'http://x').searchParams));
    if (UNKEPT.has(path)) {
      // It reads what its key does not name (else it need not be here), and was not kept.
      expect(undeclared(scans, asked), 'an unkept form that reads only its key').not.toEqual([]);
      expect((await h.get(path)).headers['x-mdq-cache'], 'asked again').toBe('miss');
      return;
    }
    expect(undeclared(scans, asked), 'read but not in readCache.tables').toEqual([]);
    const token = config.collection?.byToken ? new URL(path, 'http://x').searchParams.get('tokenId') : null;
    const named =
      (path.includes('creator=') && path.includes('collection=')) ||
      (config.collection?.byId === true && path.includes('collectionId=')) ||
      token !== null;
    if (config.collection && named) {
      expect(unscopedScans(scans, config, token ?? undefined), 'read by other than the collection').toEqual(
        [],
      );
    }
    if (config.wallet) {
      expect(path).toContain('address=');
      expect(walletUnscopedScans(scans, config), 'read by other than the wallet').toEqual([]);
    }
    if (config.lootbox) {
      expect(path).toMatch(/lootboxId=|creator=.*collection=/);
      expect(lootboxUnscopedScans(scans, config), 'read by other than the lootbox').toEqual([]);
    }
  });

  it('asks every cached route', () => {
    const asked = new Set(URLS.map((path) => routeOf(cachedRoutes(h.app), path)[0]));
    const routes = [...cachedRoutes(h.app).keys()].filter((url) => url.startsWith('/local/api/'));
    expect(routes.length).toBeGreaterThanOrEqual(26);
    expect(routes.filter((url) => !asked.has(url))).toEqual([]);
  });

  it('fails a route whose declaration leaves out a table it reads', async () => {
    // Not asked before: a miss, so the route runs its statements.
    const path = `/tokens-by-collection?creator=${CREATOR}&collection=Cats&limit=7`;
    const [, config] = routeOf(cachedRoutes(h.app), path);
    const scans = await scansOf(path);
    expect(
      undeclared(
        scans,
        config.tables.filter((t) => t !== 'tokens'),
      ),
    ).toEqual(['tokens']);
  });

  it("fails a route that names only collections' identity counter while it reads their counts", async () => {
    // The lootbox's collection page shows the collection's supply and owners: its scans stay `collections`.
    const facts = `/token-collection-by-lootbox-creator?creator=${CREATOR}&collection=Cats&limit=3`;
    const [, config] = routeOf(cachedRoutes(h.app), facts);
    const scans = await scansOf(facts);
    const identityOnly = config.tables.map((t) => (t === 'collections' ? 'collections:identity' : t));
    expect(undeclared(scans, identityOnly)).toEqual(['collections']);
    // A lootbox's tokens show their collection's name, creator and URI alone: its counter suffices.
    const tokens = '/tokens-by-lootbox?lootboxId=7&limit=3';
    const tokenScans = await scansOf(tokens);
    expect(tokenScans.map((s) => s.relation)).toContain('collections:identity');
    expect(tokenScans.map((s) => s.relation)).not.toContain('collections');
  });

  it('every declared table has a write counter, and every collection-scoped one its per-collection counter', async () => {
    const { rows } = await sql<{ name: string }>`
      SELECT tgname AS name FROM pg_trigger WHERE NOT tgisinternal`.execute(h.test.db);
    const triggers = new Set(rows.map((r) => r.name));
    for (const [url, config] of cachedRoutes(h.app)) {
      // A partial counter's triggers (global and per collection in one) are `<table>_identity_version_*`.
      const partial = (counter: string) => `${counter.split(':')[0]}_${counter.split(':')[1]}_version`;
      for (const table of config.tables) {
        const trigger =
          table in PARTIAL_COUNTERS ? `${partial(table)}_insert` : `${table}_read_version_insert`;
        expect(triggers.has(trigger), `${url}: ${table}`).toBe(true);
      }
      for (const table of config.collection?.tables ?? []) {
        for (const op of ['insert', 'update', 'delete', 'truncate']) {
          const trigger = table in PARTIAL_COUNTERS ? partial(table) : `${table}_collection_version`;
          expect(triggers.has(`${trigger}_${op}`), `${url}: ${table} ${op}`).toBe(true);
        }
      }
      for (const table of config.wallet?.tables ?? []) {
        // A token's row counts for its holders' buckets (its own function), a wallet's rows for its own.
        const trigger = table === 'tokens' ? 'tokens_wallet_tokens_version' : `${table}_wallet_version`;
        for (const op of ['insert', 'update', 'delete', 'truncate']) {
          expect(triggers.has(`${trigger}_${op}`), `${url}: ${table} ${op}`).toBe(true);
        }
      }
      for (const table of config.lootbox?.tables ?? []) {
        for (const op of ['insert', 'update', 'delete', 'truncate']) {
          expect(triggers.has(`${table}_lootbox_version_${op}`), `${url}: ${table} ${op}`).toBe(true);
        }
      }
    }
  });
});
