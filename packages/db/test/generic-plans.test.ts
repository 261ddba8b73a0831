import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, onOneConnection } from '../src/database';
import { tokenTimeline } from '../src/queries/api/activity';
import { collectionHistory } from '../src/queries/api/analytics-history';
import { collectionStats } from '../src/queries/api/analytics-stats';
import { collectionTopTraders, collectionTraitFloors } from '../src/queries/api/analytics-traders';
import { listingCardParts } from '../src/queries/api/listing-card';
import { findLootboxById } from '../src/queries/api/lootbox';
import { userMarketActivity, userPurchases } from '../src/queries/api/market-activity';
import { lootboxRanking } from '../src/queries/api/rankings';
import { storedCollectionOf } from '../src/queries/api/token-collection';
import { createTestDatabase, insertCollection, type TestDatabase } from '../src/testing';

/*
 * Statements whose plan does not depend on their values run prepared (executePrepared), so that a
 * connection plans them once: the listing card, and a token's timeline pages (PagedList.prepared);
 * planning each cost more than running it. Postgres keeps a generic plan only when its estimate is
 * near the custom plans': the listing card's `expiration_time > $now`, estimated from the histogram
 * (custom: most offers expired) against a default third (generic), kept it planning on every
 * request. Here a collection's 30,000 offers are mostly expired and analyzed, as on a live chain
 * (with 2,000 the two estimates were close enough for Postgres to keep the generic plan anyway). A
 * wallet's activity and purchases, read by its indexes, are planned once too.
 */
const C = '0xc1';
const T = '0xt1';

describe('statements planned once per connection', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await insertCollection(t.db, C);
    await sql`INSERT INTO tokens (token_data_id, token_standard, collection_id, token_name, last_transaction_version)
              VALUES (${T}, 'v2', ${C}, 'one', 1)`.execute(t.db);
    await sql`INSERT INTO collection_offers (marketplace, offer_id, contract_address, collection_id, buyer, price,
                token_amount, remaining_amount, status, expiration_time, last_transaction_version)
              SELECT 'm', 'o' || i, '0xm', ${C}, '0xb', 100 + i, 1, 1, 'active',
                     now() - interval '1 day' + (i > 29990)::int * interval '2 days', 1
                FROM generate_series(1, 30000) i`.execute(t.db);
    await sql`ANALYZE collection_offers`.execute(t.db);
  });
  afterAll(() => t.drop());

  it('is planned once per connection: a generic plan serves it after a few requests', async () => {
    const one = createDb(t.url, { max: 1 });
    try {
      for (let i = 0; i < 12; i++) {
        const card = await listingCardParts(one, T, new Date());
        // The best live bid: the highest of the ten that have not expired.
        expect(card?.bestBid?.price).toBe('30100');
      }
      const { rows } = await sql<{ generic: number; custom: number }>`
        SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
         WHERE statement LIKE '%to_json(tk) AS token%'`.execute(one);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.generic).toBeGreaterThan(0);
    } finally {
      await one.destroy();
    }
  });

  it("a wallet's activity and purchases are planned once per connection too", async () => {
    const one = createDb(t.url, { max: 1 });
    try {
      for (let i = 0; i < 12; i++) {
        const request = { page: 1, limit: 5, version: String(i) };
        expect((await userMarketActivity(one, '0xb', request)).pagination.total).toBe(0);
        expect((await userPurchases(one, '0xb', request)).pagination.total).toBe(0);
      }
      const { rows } = await sql<{ statement: string; generic: number }>`
        SELECT statement, generic_plans::int AS generic FROM pg_prepared_statements`.execute(one);
      const generic = (...texts: string[]) =>
        rows.find((r) => texts.every((text) => r.statement.includes(text)))?.generic ?? 0;
      expect(generic('WHERE m.seller = $', 'm.seller IS DISTINCT FROM')).toBeGreaterThan(0);
      expect(generic('WHERE m.buyer = $', 'fill_listing')).toBeGreaterThan(0);
    } finally {
      await one.destroy();
    }
  });

  it("a token's timeline pages are planned once per connection too", async () => {
    const one = createDb(t.url, { max: 1 });
    try {
      for (let i = 0; i < 12; i++) {
        // A new read version each time: the rows and the total are read in one statement.
        const page = await tokenTimeline(one, { id: T, collection: storedCollectionOf(T) }, null, {
          page: 1,
          limit: 5,
          version: String(i),
        });
        expect(page.pagination.total).toBe(0);
      }
      const { rows } = await sql<{ generic: number }>`
        SELECT generic_plans::int AS generic FROM pg_prepared_statements
         WHERE statement LIKE '%FROM token_activities a%'`.execute(one);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.generic).toBeGreaterThan(0);
    } finally {
      await one.destroy();
    }
  });

  it('a column added to lootboxes while a connection holds its prepared lookups does not break them', async () => {
    await sql`INSERT INTO lootboxes (lootbox_id, creator_address, collection_name, collection_id, price, coin_type,
                max_supply, mint_start, created_at, created_version, last_transaction_version)
              VALUES (7, ${C}, 'Box', ${C}, 100, '0x1::aptos_coin::AptosCoin', 10, now(), now(), 1, 1)`.execute(
      t.db,
    );
    const one = createDb(t.url, { max: 1 });
    try {
      const ask = async () => {
        expect((await findLootboxById(one, 7))?.collection).toBe('Box');
        expect((await lootboxRanking(one, 'recent', { page: 1, limit: 5 })).page.data).toHaveLength(1);
      };
      for (let i = 0; i < 8; i++) await ask();
      // A later migration's kind of change: a statement that selected `*` would now fail with
      // "cached plan must not change result type" on this connection.
      await sql`ALTER TABLE lootboxes ADD COLUMN mdq_test_extra integer`.execute(t.db);
      await ask();
    } finally {
      await one.destroy();
      await sql`ALTER TABLE lootboxes DROP COLUMN IF EXISTS mdq_test_extra`.execute(t.db);
    }
  });

  it("the analytics' statements of one collection are planned once on the answer's connection", async () => {
    const one = createDb(t.url, { max: 1 });
    try {
      const rows = await onOneConnection(one, async (connection) => {
        for (let i = 0; i < 12; i++) {
          const stats = await collectionStats(connection, C, '24h', new Date(), false);
          // The best live offer: the highest of the ten that have not expired.
          expect(stats?.bestCollectionOffer).toBe('30100');
          expect(await collectionTraitFloors(connection, C, false)).toEqual([]);
          const now = new Date();
          const from = new Date(now.getTime() - 86_400_000);
          expect(await collectionHistory(connection, C, '1h', from, now, false)).toHaveLength(25);
          expect(await collectionTopTraders(connection, C, from, now, false, 10)).toEqual({
            buyers: [],
            sellers: [],
          });
        }
        // The answer's own connection: prepared statements are per session.
        return (
          await sql<{ statement: string; generic: number }>`
            SELECT statement, generic_plans::int AS generic FROM pg_prepared_statements`.execute(connection)
        ).rows;
      });
      const generic = (text: string) => rows.find((r) => r.statement.includes(text))?.generic ?? 0;
      // The best offer compares its expiry through unestimated, as every prepared statement does.
      expect(generic('max(o.price)')).toBeGreaterThan(0);
      expect(generic('percentile_disc')).toBeGreaterThan(0);
      expect(generic('ORDER BY h.held DESC')).toBeGreaterThan(0);
      expect(generic('live_tokens')).toBeGreaterThan(0);
      expect(generic('FROM trait_value_floors f')).toBeGreaterThan(0);
      expect(generic('cut.v IS NULL')).toBeGreaterThan(0);
      expect(generic('snapshot_at >= $')).toBeGreaterThan(0);
      expect(generic('AS address, sum(m.price)')).toBeGreaterThan(0);
    } finally {
      await one.destroy();
    }
  });
});
