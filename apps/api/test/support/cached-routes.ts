import pg from 'pg';
import { type ApiHarness, addr } from './fixtures';

/*
 * The routes of the version-keyed response cache and a dataset on which each of them answers with
 * rows (so that every statement a route can run for it runs): shared by the cache's tests.
 */

export const CREATOR = addr(0xc1);
export const OWNER = addr(0xa1);
export const BUYER = addr(0xb1);
export const COLLECTION = addr(0x100);
export const TOKEN = addr(0x1001);

// One URL per route that opts into the version-keyed response cache.
export const CACHED = [
  `/token-balances?address=${OWNER}`,
  '/tokens-by-lootbox?lootboxId=7',
  `/lootbox?creator=${CREATOR}&collection=Cats`,
  '/rarities-by-lootbox?lootboxId=7',
  '/rankings/recent-added',
  `/tokens-by-collection?creator=${CREATOR}&collection=Cats`,
  `/tokens-by-lootbox-creator?creator=${CREATOR}&collection=Cats`,
  `/token/activity?creator=${CREATOR}&collection=Cats&tokenName=${encodeURIComponent('Cat #1')}`,
  `/token/traits?creator=${CREATOR}&collection=Cats&tokenName=${encodeURIComponent('Cat #1')}&tokenStandard=v2`,
  `/market/token-history-by-tokenId?tokenId=${TOKEN}`,
  `/market/listing-card?tokenId=${TOKEN}&tokenStandard=v2`,
  `/market/listings-by-collection?creator=${CREATOR}&collection=Cats`,
  '/market/search?text=cat',
  // A one- or two-character text is answered by another statement (a prefix search).
  '/market/search?text=c',
  '/market/listing-cards',
  '/market/total-listing-cards',
  `/market/user-activity?address=${OWNER}`,
  `/market/user-listings?address=${OWNER}`,
  `/market/user-history?address=${BUYER}`,
  '/rankings/trending-collections',
  '/rankings/daily-picks',
  '/rankings/top-collections',
  `/rarities-by-collection?creator=${CREATOR}&collection=Cats`,
  `/market/bids-by-collection?creator=${CREATOR}&collection=Cats`,
  `/market/user-bids?address=${BUYER}`,
  `/token-collection-by-lootbox-creator?creator=${CREATOR}&collection=Cats`,
  // The analytics routes whose answer moves with the clock (collection-stats, -history,
  // -top-traders) are not here: a test of their own pins the clock (response-cache.test.ts).
  `/collection-trait-floors?collectionId=${COLLECTION}`,
];

/** The collection Cats (lootbox 7, minting from `mintStart`) and its token Cat #1. */
export async function seedCats(h: ApiHarness, mintStart: string): Promise<void> {
  await h.fx.collection({ id: COLLECTION, creator: CREATOR, name: 'Cats', lootboxId: 7 });
  await h.fx.lootbox({ id: 7, creator: CREATOR, name: 'Cats', collectionId: COLLECTION, mintStart });
  await h.fx.token({
    id: TOKEN,
    collectionId: COLLECTION,
    creator: CREATOR,
    collection: 'Cats',
    name: 'Cat #1',
    lootboxId: 7,
  });
}

/**
 * A connection whose writes fire no triggers, so the read version does not move: it changes what a
 * cache keyed by the version alone would go on serving.
 */
export async function triggerlessClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('SET session_replication_role = replica');
  return client;
}

/** A listing of the Cat by OWNER, but for its id, price, version and status. */
export const CAT_LISTING = {
  tokenId: TOKEN,
  tokenName: 'Cat #1',
  collectionId: COLLECTION,
  collection: 'Cats',
  creator: CREATOR,
  seller: OWNER,
};

/** The Cats collection with a row in every table a cached route reads, at indexed version 3. */
export async function seedCachedRoutes(h: ApiHarness): Promise<void> {
  const { fx, test } = h;
  await seedCats(h, '2026-01-01T00:00:00Z');
  await fx.ownership({ tokenId: TOKEN, owner: OWNER, collectionId: COLLECTION });
  await fx.attribute(TOKEN, COLLECTION, 'fur', 'black');
  await fx.tokenActivity({ version: 1, kind: 'mint', tokenId: TOKEN, collectionId: COLLECTION, to: OWNER });
  await fx.listing({ ...CAT_LISTING, id: 'l1', price: '100', version: 2 });
  await fx.marketActivity({
    version: 3,
    kind: 'fill_listing',
    tokenId: TOKEN,
    collectionId: COLLECTION,
    collection: 'Cats',
    creator: CREATOR,
    price: '90',
    seller: OWNER,
    buyer: BUYER,
  });
  await fx.tokenOffer({
    id: 'o1',
    tokenId: TOKEN,
    collectionId: COLLECTION,
    buyer: BUYER,
    price: '80',
    version: 3,
  });
  for (const ranking of ['trending', 'daily_picks', 'top'] as const) {
    await test.db
      .insertInto('ranking_snapshots')
      .values({
        ranking,
        position: 1,
        collection_id: COLLECTION,
        lootbox_id: null,
        score: 1,
        metrics: JSON.stringify({ volume: '90', sales: 1 }),
        computed_at: new Date(),
      })
      .execute();
  }
  await test.db
    .insertInto('token_rarity')
    .values({
      token_data_id: TOKEN,
      collection_id: COLLECTION,
      score: 1,
      rank: 1,
      trait_count: 1,
      computed_at: new Date(),
    })
    .execute();
  await test.db
    .insertInto('indexer_checkpoints')
    .values({ name: 'default', last_version: 3, last_timestamp: null })
    .execute();
}
