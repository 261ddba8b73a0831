import { createApiKey, createDb, type Db, migrateToLatest, sql } from '@mdq/db';
import { analyzeForPlans, explainPlan, seqScannedRelations } from '@mdq/db/read';
import { createTestDatabase } from '@mdq/db/testing';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { addr, at } from './support/fixtures';

/*
 * MDQ_EXPLAIN_DATABASE_URL: run the same checks on an indexed database instead of the seeded one
 * (e.g. a copy of the 1M-transaction bench database, `mdq_bench_api_1000000`): the parameters are
 * then its busiest wallet, buyer, collection, lootbox and token. The test adds an API key there, so
 * point it at a copy, not at the bench template.
 */
const EXTERNAL_URL = process.env['MDQ_EXPLAIN_DATABASE_URL'];

/*
 * Every endpoint's reads must be index-backed. The app reads through a Kysely instance that records
 * each compiled statement; each one is then EXPLAINed with its own parameters on a dataset large
 * enough (and ANALYZEd) for the planner to prefer a sequential scan wherever no index serves.
 */
const ACTIVITY_TABLES = ['marketplace_activities', 'token_activities', 'token_ownerships', 'listings'];
const COLLECTIONS = 200;
const TOKENS = 20_000;
const WALLETS = 2_000;
const KINDS = [
  'place_listing',
  'fill_listing',
  'cancel_listing',
  'place_token_offer',
  'fill_collection_offer',
];

const collection = (i: number) => addr(0x100000 + i);
const creator = (i: number) => addr(0xc0000 + (i % 20));
const token = (n: number) => addr(0x1000000 + n);
const wallet = (n: number) => addr(0xa0000 + (n % WALLETS));

async function insertChunked<T>(
  db: Db,
  count: number,
  row: (i: number) => T,
  insert: (rows: T[]) => Promise<unknown>,
) {
  for (let start = 0; start < count; start += 1000) {
    const rows: T[] = [];
    for (let i = start; i < Math.min(count, start + 1000); i++) rows.push(row(i));
    await insert(rows);
  }
  void db;
}

async function seed(db: Db): Promise<void> {
  await insertChunked(
    db,
    COLLECTIONS,
    (i) => ({
      collection_id: collection(i),
      token_standard: 'v2' as const,
      creator_address: creator(i),
      collection_name: `Collection ${i}`,
      description: null,
      uri: `https://example.com/c/${i}.json`,
      current_supply: '100',
      max_supply: '100',
      total_minted: '100',
      owner_count: 50,
      lootbox_id: i < 50 ? i : null,
      created_at: at(i),
      created_version: i,
      last_transaction_version: i,
    }),
    (rows) => db.insertInto('collections').values(rows).execute(),
  );
  await insertChunked(
    db,
    TOKENS,
    (n) => ({
      token_data_id: token(n),
      token_standard: 'v2' as const,
      collection_id: collection(n % COLLECTIONS),
      creator_address: creator(n % COLLECTIONS),
      collection_name: `Collection ${n % COLLECTIONS}`,
      token_name: `Token ${n}`,
      description: null,
      token_uri: null,
      properties: null,
      supply: '1',
      maximum: '1',
      largest_property_version: '0',
      lootbox_id: n % COLLECTIONS < 50 ? n % COLLECTIONS : null,
      lootbox_tier: 'common',
      minted_at: at(1000 + n),
      minted_version: 1000 + n,
      last_transaction_version: 1000 + n,
    }),
    (rows) => db.insertInto('tokens').values(rows).execute(),
  );
  await insertChunked(
    db,
    TOKENS * 2,
    (n) => ({
      token_data_id: token(n % TOKENS),
      trait_type: n < TOKENS ? 'Background' : 'Eyes',
      collection_id: collection(n % COLLECTIONS),
      value: `v${n % 7}`,
    }),
    (rows) => db.insertInto('token_attributes').values(rows).execute(),
  );
  await insertChunked(
    db,
    TOKENS,
    (n) => ({
      token_data_id: token(n),
      property_version: '0',
      owner_address: wallet(n),
      collection_id: collection(n % COLLECTIONS),
      token_standard: 'v2' as const,
      amount: n % 10 === 0 ? '0' : '1',
      last_transaction_version: 1000 + n,
    }),
    (rows) => db.insertInto('token_ownerships').values(rows).execute(),
  );
  await insertChunked(
    db,
    TOKENS * 2,
    (i) => ({
      transaction_version: 100_000 + i,
      event_index: 0,
      kind: i % 2 ? 'transfer' : 'mint',
      event_type: '0x4::token::Mint',
      token_data_id: token(i % TOKENS),
      token_standard: 'v2' as const,
      collection_id: collection(i % COLLECTIONS),
      property_version: '0',
      from_address: wallet(i),
      to_address: wallet(i + 1),
      amount: '1',
      transaction_timestamp: at(100_000 + i),
    }),
    (rows) => db.insertInto('token_activities').values(rows).execute(),
  );
  await insertChunked(
    db,
    TOKENS * 2,
    (i) => ({
      transaction_version: 200_000 + i,
      event_index: 1,
      kind: KINDS[i % KINDS.length] ?? 'fill_listing',
      marketplace: 'mdq',
      contract_address: addr(0x6d71),
      raw_event_type: 'mdq::Event',
      token_data_id: token(i % TOKENS),
      token_standard: 'v2',
      property_version: '0',
      collection_id: collection(i % COLLECTIONS),
      collection_name: `Collection ${i % COLLECTIONS}`,
      creator_address: creator(i % COLLECTIONS),
      token_name: `Token ${i % TOKENS}`,
      price: String(1000 + (i % 997)),
      token_amount: '1',
      coin_type: null,
      seller: wallet(i),
      buyer: wallet(i + 7),
      listing_id: `l${i}`,
      offer_id: null,
      commission: null,
      royalties: null,
      transaction_timestamp: new Date(Date.now() - (i % 720) * 3_600_000).toISOString(),
    }),
    (rows) => db.insertInto('marketplace_activities').values(rows).execute(),
  );
  await insertChunked(
    db,
    TOKENS,
    (n) => ({
      marketplace: 'mdq',
      listing_id: `l${n}`,
      contract_address: addr(0x6d71),
      token_data_id: token(n),
      token_standard: 'v2',
      property_version: '0',
      collection_id: collection(n % COLLECTIONS),
      collection_name: `Collection ${n % COLLECTIONS}`,
      creator_address: creator(n % COLLECTIONS),
      token_name: `Token ${n}`,
      seller: wallet(n),
      buyer: null,
      price: String(1000 + (n % 997)),
      token_amount: '1',
      coin_type: null,
      status: (['active', 'sold', 'cancelled', 'sold', 'cancelled'] as const)[n % 5] ?? 'sold',
      listed_at: at(300_000 + n),
      listed_version: 300_000 + n,
      closed_at: null,
      last_transaction_version: 300_000 + n,
    }),
    (rows) => db.insertInto('listings').values(rows).execute(),
  );
  await insertChunked(
    db,
    5_000,
    (n) => ({
      marketplace: 'mdq',
      offer_id: `o${n}`,
      contract_address: addr(0x6d71),
      token_data_id: token(n),
      token_standard: 'v2',
      property_version: '0',
      collection_id: collection(n % COLLECTIONS),
      collection_name: null,
      creator_address: null,
      token_name: null,
      buyer: wallet(n),
      seller: null,
      price: String(500 + n),
      token_amount: '1',
      coin_type: null,
      status: n % 3 ? ('filled' as const) : ('active' as const),
      expiration_time: null,
      created_at: at(400_000 + n),
      created_version: 400_000 + n,
      last_transaction_version: 400_000 + n,
    }),
    (rows) => db.insertInto('token_offers').values(rows).execute(),
  );
  await insertChunked(
    db,
    50,
    (i) => ({
      lootbox_id: i,
      creator_address: creator(i),
      collection_name: `Collection ${i}`,
      collection_id: collection(i),
      price: '100',
      coin_type: '0x1::aptos_coin::AptosCoin',
      max_supply: '1000',
      mint_start: at(i),
      mint_end: null,
      created_at: at(i),
      created_version: i,
      last_transaction_version: i,
    }),
    (rows) => db.insertInto('lootboxes').values(rows).execute(),
  );
  await insertChunked(
    db,
    10_000,
    (i) => ({
      transaction_version: 500_000 + i,
      event_index: 0,
      lootbox_id: i % 50,
      buyer: wallet(i),
      quantity: '1',
      amount_paid: '100',
      coin_type: '0x1::aptos_coin::AptosCoin',
      transaction_timestamp: new Date(Date.now() - i * 60_000).toISOString(),
    }),
    (rows) => db.insertInto('lootbox_purchases').values(rows).execute(),
  );
  await insertChunked(
    db,
    TOKENS,
    (n) => ({
      token_data_id: token(n),
      collection_id: collection(n % COLLECTIONS),
      score: n / TOKENS,
      rank: Math.floor(n / COLLECTIONS) + 1,
      trait_count: 2,
      computed_at: new Date(),
    }),
    (rows) => db.insertInto('token_rarity').values(rows).execute(),
  );
  for (const ranking of ['trending', 'daily_picks', 'top'] as const) {
    await insertChunked(
      db,
      100,
      (i) => ({
        ranking,
        position: i + 1,
        collection_id: collection(i),
        lootbox_id: null,
        score: 1 - i / 100,
        metrics: JSON.stringify({ volume: '1' }),
        computed_at: new Date(),
      }),
      (rows) => db.insertInto('ranking_snapshots').values(rows).execute(),
    );
  }
  await analyzeForPlans(db);
}

/** The values the endpoints are asked about. */
interface Params {
  wallet: string;
  /** A wallet that buys in fills. */
  buyer: string;
  creator: string;
  collection: string;
  collectionId: string;
  lootboxId: number;
  lootboxCreator: string;
  lootboxCollection: string;
  tokenId: string;
  tokenName: string;
  listedTokenId: string;
  /** A collection whose listings are all active (several pages by cursor). */
  activeCreator: string;
  activeCollection: string;
  /** A collection with more than one page of live bids. */
  bidCreator: string;
  bidCollection: string;
  search: string;
}

const C = 7;
const W = 42;
const SEEDED: Params = {
  wallet: wallet(W),
  buyer: wallet(43),
  creator: creator(C),
  collection: `Collection ${C}`,
  collectionId: collection(C),
  lootboxId: 7,
  lootboxCreator: creator(C),
  lootboxCollection: `Collection ${C}`,
  tokenId: token(C),
  tokenName: `Token ${C}`,
  listedTokenId: token(C * 5),
  activeCreator: creator(10),
  activeCollection: 'Collection 10',
  bidCreator: creator(C),
  bidCollection: `Collection ${C}`,
  search: 'Token 123',
};

/** The busiest of everything in an indexed database, so the plans are asked about real volumes. */
async function sampledParams(db: Db): Promise<Params> {
  const one = async <T>(query: ReturnType<typeof sql<T>>): Promise<T> => {
    const row = (await query.execute(db)).rows[0];
    if (!row) throw new Error(`nothing to sample: ${query.compile(db).sql}`);
    return row;
  };
  const w = await one(sql<{ a: string }>`
    SELECT owner_address AS a FROM token_ownerships GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`);
  const b = await one(sql<{ a: string }>`
    SELECT buyer AS a FROM marketplace_activities WHERE kind LIKE 'fill_%' AND buyer IS NOT NULL
     GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`);
  const c = await one(sql<{ id: string; creator: string; name: string }>`
    SELECT c.collection_id AS id, c.creator_address AS creator, c.collection_name AS name
      FROM collections c JOIN listings l ON l.collection_id = c.collection_id
     GROUP BY 1, 2, 3 ORDER BY count(*) DESC LIMIT 1`);
  const lb = await one(sql<{ id: number; creator: string; name: string }>`
    SELECT lb.lootbox_id AS id, lb.creator_address AS creator, lb.collection_name AS name
      FROM lootboxes lb JOIN tokens t ON t.lootbox_id = lb.lootbox_id
     GROUP BY 1, 2, 3 ORDER BY count(*) DESC LIMIT 1`);
  const t = await one(sql<{ id: string; name: string }>`
    SELECT t.token_data_id AS id, t.token_name AS name FROM tokens t
      JOIN marketplace_activities m ON m.token_data_id = t.token_data_id
     WHERE t.collection_id = ${c.id} GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1`);
  const bids = await one(sql<{ creator: string; name: string }>`
    SELECT c.creator_address AS creator, c.collection_name AS name
      FROM collections c JOIN collection_offers o ON o.collection_id = c.collection_id
     WHERE o.status = 'active'
     GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1`);
  const listed = await one(sql<{ id: string }>`
    SELECT token_data_id AS id FROM listings WHERE status = 'active' AND token_standard = 'v2' LIMIT 1`);
  return {
    wallet: w.a,
    buyer: b.a,
    creator: c.creator,
    collection: c.name,
    collectionId: c.id,
    lootboxId: lb.id,
    lootboxCreator: lb.creator,
    lootboxCollection: lb.name,
    tokenId: t.id,
    tokenName: t.name,
    listedTokenId: listed.id,
    activeCreator: c.creator,
    activeCollection: c.name,
    bidCreator: bids.creator,
    bidCollection: bids.name,
    search: t.name.slice(0, 6),
  };
}

const EXTERNAL_PARAMS = EXTERNAL_URL
  ? await (async () => {
      const db = createDb(EXTERNAL_URL, { max: 1 });
      try {
        return await sampledParams(db);
      } finally {
        await db.destroy();
      }
    })()
  : undefined;
const P = EXTERNAL_PARAMS ?? SEEDED;
const enc = encodeURIComponent;
const pair = `creator=${P.creator}&collection=${enc(P.collection)}`;
const lbPair = `creator=${P.lootboxCreator}&collection=${enc(P.lootboxCollection)}`;
const ENDPOINTS = [
  `/token-balances?address=${P.wallet}`,
  `/token-balances?address=${P.wallet}&greaterThanZeroBalance=true&serviceInfo=true&collection=${enc(P.collection)}`,
  `/tokens-by-lootbox?lootboxId=${P.lootboxId}`,
  `/tokens-by-collection?${pair}`,
  `/tokens-by-lootbox-creator?${lbPair}`,
  `/token-collection-by-lootbox-creator?${lbPair}`,
  `/token/activity?${pair}&tokenName=${enc(P.tokenName)}`,
  `/token/traits?${pair}&tokenName=${enc(P.tokenName)}&tokenStandard=v2`,
  `/market/token-history-by-tokenId?tokenId=${P.tokenId}`,
  `/market/listing-card?tokenId=${P.listedTokenId}&tokenStandard=v2`,
  `/market/listings-by-collection?${pair}`,
  `/market/listings-by-collection?lootboxId=${P.lootboxId}&page=3`,
  `/market/bids-by-collection?${pair}`,
  `/market/search?text=${enc(P.search)}`,
  '/market/listing-cards',
  '/market/listing-cards?page=5',
  '/market/listing-cards?minPrice=1500&maxPrice=1600',
  `/market/listing-cards?collectionName=${enc(P.collection)}&creatorAddress=${P.creator}`,
  `/market/listing-cards?search=${enc(P.search)}`,
  '/market/listing-cards?byPopular=true',
  '/market/total-listing-cards',
  `/market/total-listing-cards?search=${enc(P.search)}&minPrice=1000`,
  `/market/user-activity?address=${P.wallet}`,
  `/market/user-listings?address=${P.wallet}`,
  `/market/user-bids?address=${P.wallet}`,
  `/market/user-history?address=${P.wallet}`,
  `/user/inventory-history-data?address=${P.wallet}&range=7d`,
  `/lootbox?${lbPair}`,
  `/lootbox-revenue?${lbPair}&timeframe=7d`,
  `/rarities-by-lootbox?lootboxId=${P.lootboxId}`,
  `/rarities-by-collection?${pair}`,
  '/rankings/trending-collections?limit=100',
  '/rankings/daily-picks',
  '/rankings/top-collections?page=2',
  '/rankings/recent-added',
  '/rankings/by-upcoming',
  '/rankings/trending-collections?includeFlagged=true',
  ...['1h', '24h', '7d', '30d', 'all'].map(
    (w) => `/collection-stats?collectionId=${P.collectionId}&window=${w}`,
  ),
  `/collection-stats?${pair}&window=7d&includeFlagged=true`,
  `/collection-stats?lootboxId=${P.lootboxId}`,
  `/collection-history?collectionId=${P.collectionId}&interval=1h`,
  `/collection-history?collectionId=${P.collectionId}&interval=1d&includeFlagged=true`,
  `/collection-trait-floors?collectionId=${P.collectionId}`,
  `/collection-top-traders?collectionId=${P.collectionId}&window=30d`,
  `/collection-top-traders?collectionId=${P.collectionId}&window=all&includeFlagged=true`,
];

/** The app under test, reading through `capture`, on the seeded database or on EXTERNAL_URL. */
async function startApp(capture: (db: Db) => Db) {
  let db: Db;
  let drop: () => Promise<void>;
  if (EXTERNAL_URL) {
    db = createDb(EXTERNAL_URL, { max: 5 });
    await migrateToLatest(db);
    drop = () => db.destroy();
  } else {
    const test = await createTestDatabase();
    db = test.db;
    await seed(db);
    drop = () => test.drop();
  }
  const app: FastifyInstance = await buildApp({ db, readDb: capture(db), network: 'local' });
  const { key, keyId } = await createApiKey(db, { name: 'index-plans' });
  return {
    db,
    get: (path: string) =>
      app.inject({ method: 'GET', url: `/local/api${path}`, headers: { 'x-api-key': key } } as InjectOptions),
    async close() {
      await app.close();
      if (EXTERNAL_URL) await db.deleteFrom('api_keys').where('key_id', '=', keyId).execute();
      await drop();
    },
  };
}

describe('read paths are index-backed', () => {
  let h: Awaited<ReturnType<typeof startApp>>;
  const captured: { sql: string; parameters: readonly unknown[] }[] = [];

  beforeAll(async () => {
    h = await startApp((db) => {
      const executor = db.getExecutor();
      return db.withPlugin({
        transformQuery(args) {
          captured.push(executor.compileQuery(args.node, args.queryId));
          return args.node;
        },
        transformResult: async (args) => args.result,
      });
    });
    // The seed writes ~200k rows through Kysely: seconds on a quiet machine, but a CI machine running
    // every package's tests at once once took more than two minutes, so the limit is wide.
  }, 600_000);
  afterAll(() => h?.close());

  it.each(ENDPOINTS)('%s', async (path) => {
    captured.length = 0;
    const res = await h.get(path);
    expect(res.statusCode, res.body).toBe(200);
    expect(captured.length).toBeGreaterThan(0);
    for (const statement of captured.splice(0)) {
      const plan = await explainPlan(h.db, statement.sql, statement.parameters);
      const scanned = seqScannedRelations(plan).filter((t) => ACTIVITY_TABLES.includes(t));
      expect(scanned, `${statement.sql}\n${JSON.stringify(plan, null, 1).slice(0, 3000)}`).toEqual([]);
    }
  });
  // Keyset pages: the statement that continues after a cursor must be as index-backed as page 1.
  it.each([
    '/market/listing-cards?limit=5',
    '/market/listing-cards?byPopular=true&limit=5',
    // Collection 10's listings are all active; wallet 43 buys in fills (see seed()).
    `/market/listings-by-collection?creator=${P.activeCreator}&collection=${enc(P.activeCollection)}&limit=5`,
    `/market/bids-by-collection?creator=${P.bidCreator}&collection=${enc(P.bidCollection)}&limit=5`,
    `/market/user-activity?address=${P.wallet}&limit=5`,
    `/market/user-history?address=${P.buyer}&limit=2`,
    `/tokens-by-collection?${pair}&limit=5`,
    `/token-balances?address=${P.wallet}&limit=2`,
    `/token/activity?${pair}&tokenName=${enc(P.tokenName)}&limit=1`,
    `/rarities-by-collection?${pair}&limit=5`,
  ])('%s, next page by cursor', async (path) => {
    const first = await h.get(path);
    const cursor = first.json().pagination.nextCursor;
    // An indexed chain may have no second page (its offers all expired by the wall clock): then
    // page 1's statements, checked above, are all there is.
    if (EXTERNAL_URL && cursor === null) return;
    expect(cursor, path).toBeTypeOf('string');
    captured.length = 0;
    const res = await h.get(`${path}&cursor=${cursor}`);
    expect(res.statusCode, res.body).toBe(200);
    for (const statement of captured.splice(0)) {
      const plan = await explainPlan(h.db, statement.sql, statement.parameters);
      const scanned = seqScannedRelations(plan).filter((t) => ACTIVITY_TABLES.includes(t));
      expect(scanned, `${statement.sql}\n${JSON.stringify(plan, null, 1).slice(0, 3000)}`).toEqual([]);
    }
  });
});
