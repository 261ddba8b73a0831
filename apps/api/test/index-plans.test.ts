import { analyzeForPlans, type Db, explainPlan, seqScannedRelations } from '@mdq/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, addr, at, createHarness } from './support/fixtures';

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

const C = 7;
const W = 42;
const ENDPOINTS = [
  `/token-balances?address=${wallet(W)}`,
  `/token-balances?address=${wallet(W)}&greaterThanZeroBalance=true&serviceInfo=true&collection=Collection%20${C}`,
  '/tokens-by-lootbox?lootboxId=7',
  `/tokens-by-collection?creator=${creator(C)}&collection=Collection%20${C}`,
  `/tokens-by-lootbox-creator?creator=${creator(C)}&collection=Collection%20${C}`,
  `/token-collection-by-lootbox-creator?creator=${creator(C)}&collection=Collection%20${C}`,
  `/token/activity?creator=${creator(C)}&collection=Collection%20${C}&tokenName=Token%20${C}`,
  `/token/traits?creator=${creator(C)}&collection=Collection%20${C}&tokenName=Token%20${C}&tokenStandard=v2`,
  `/market/token-history-by-tokenId?tokenId=${token(C)}`,
  `/market/listing-card?tokenId=${token(C * 5)}&tokenStandard=v2`,
  `/market/listings-by-collection?creator=${creator(C)}&collection=Collection%20${C}`,
  '/market/listings-by-collection?lootboxId=7&page=3',
  `/market/bids-by-collection?creator=${creator(C)}&collection=Collection%20${C}`,
  '/market/search?text=Token%20123',
  '/market/listing-cards',
  '/market/listing-cards?page=5',
  '/market/listing-cards?minPrice=1500&maxPrice=1600',
  `/market/listing-cards?collectionName=Collection%20${C}&creatorAddress=${creator(C)}`,
  '/market/listing-cards?search=Token%20123',
  '/market/listing-cards?byPopular=true',
  '/market/total-listing-cards',
  '/market/total-listing-cards?search=Token%20123&minPrice=1000',
  `/market/user-activity?address=${wallet(W)}`,
  `/market/user-listings?address=${wallet(W)}`,
  `/market/user-bids?address=${wallet(W)}`,
  `/market/user-history?address=${wallet(W)}`,
  `/user/inventory-history-data?address=${wallet(W)}&range=7d`,
  `/lootbox?creator=${creator(C)}&collection=Collection%20${C}`,
  `/lootbox-revenue?creator=${creator(C)}&collection=Collection%20${C}&timeframe=7d`,
  '/rarities-by-lootbox?lootboxId=7',
  `/rarities-by-collection?creator=${creator(C)}&collection=Collection%20${C}`,
  '/rankings/trending-collections?limit=100',
  '/rankings/daily-picks',
  '/rankings/top-collections?page=2',
  '/rankings/recent-added',
  '/rankings/by-upcoming',
  '/rankings/trending-collections?includeFlagged=true',
  ...['1h', '24h', '7d', '30d', 'all'].map(
    (w) => `/collection-stats?collectionId=${collection(C)}&window=${w}`,
  ),
  `/collection-stats?creator=${creator(C)}&collection=Collection%20${C}&window=7d&includeFlagged=true`,
  '/collection-stats?lootboxId=7',
  `/collection-history?collectionId=${collection(C)}&interval=1h`,
  `/collection-history?collectionId=${collection(C)}&interval=1d&includeFlagged=true`,
  `/collection-trait-floors?collectionId=${collection(C)}`,
  `/collection-top-traders?collectionId=${collection(C)}&window=30d`,
  `/collection-top-traders?collectionId=${collection(C)}&window=all&includeFlagged=true`,
];

describe('read paths are index-backed', () => {
  let h: ApiHarness;
  const captured: { sql: string; parameters: readonly unknown[] }[] = [];

  beforeAll(async () => {
    h = await createHarness({
      readDb: (db) => {
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
    await seed(h.test.db);
  }, 120_000);
  afterAll(() => h.close());

  it.each(ENDPOINTS)('%s', async (path) => {
    captured.length = 0;
    const res = await h.get(path);
    expect(res.statusCode, res.body).toBe(200);
    expect(captured.length).toBeGreaterThan(0);
    for (const statement of captured.splice(0)) {
      const plan = await explainPlan(h.test.db, statement.sql, statement.parameters);
      const scanned = seqScannedRelations(plan).filter((t) => ACTIVITY_TABLES.includes(t));
      expect(scanned, `${statement.sql}\n${JSON.stringify(plan, null, 1).slice(0, 3000)}`).toEqual([]);
    }
  });
  // Keyset pages: the statement that continues after a cursor must be as index-backed as page 1.
  it.each([
    '/market/listing-cards?limit=5',
    '/market/listing-cards?byPopular=true&limit=5',
    // Collection 10's listings are all active; wallet 43 buys in fills (see seed()).
    `/market/listings-by-collection?creator=${creator(10)}&collection=Collection%2010&limit=5`,
    `/market/bids-by-collection?creator=${creator(C)}&collection=Collection%20${C}&limit=5`,
    `/market/user-activity?address=${wallet(W)}&limit=5`,
    `/market/user-history?address=${wallet(43)}&limit=2`,
    `/tokens-by-collection?creator=${creator(C)}&collection=Collection%20${C}&limit=5`,
    `/token-balances?address=${wallet(W)}&limit=2`,
    `/token/activity?creator=${creator(C)}&collection=Collection%20${C}&tokenName=Token%20${C}&limit=1`,
    `/rarities-by-collection?creator=${creator(C)}&collection=Collection%20${C}&limit=5`,
  ])('%s, next page by cursor', async (path) => {
    const first = await h.get(path);
    const cursor = first.json().pagination.nextCursor;
    expect(cursor, path).toBeTypeOf('string');
    captured.length = 0;
    const res = await h.get(`${path}&cursor=${cursor}`);
    expect(res.statusCode, res.body).toBe(200);
    for (const statement of captured.splice(0)) {
      const plan = await explainPlan(h.test.db, statement.sql, statement.parameters);
      const scanned = seqScannedRelations(plan).filter((t) => ACTIVITY_TABLES.includes(t));
      expect(scanned, `${statement.sql}\n${JSON.stringify(plan, null, 1).slice(0, 3000)}`).toEqual([]);
    }
  });
});
