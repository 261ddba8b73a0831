import { sql } from '@mdq/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, addr, createHarness } from './support/fixtures';

/*
 * listing-cards reads only what a page needs (the popular order walks the ranking and stops at the
 * page's reach; a searchable text collects its matches from the indexes): every page, by number
 * and by cursor, must still be the slice of the one order over every active listing, written here
 * as the plain statement that sorts them all.
 */
const CREATOR = addr(0xc0);
const SELLER = addr(0xa0);
const RANKED = 6;
const COLLECTIONS = 9; // the last three are not in the ranking
const collectionId = (c: number) => addr(0x7000 + c);
const names = ['Lazy Wizard', 'Pixel Samurai', 'Velvet Koala'];

interface Card {
  listingId: string;
}
interface PageBody {
  data: Card[];
  pagination: { total: number; nextCursor: string | null; hasMore: boolean };
}

describe('listing-cards pages against a sort of every active listing', () => {
  let h: ApiHarness;

  beforeAll(async () => {
    h = await createHarness();
    let version = 100;
    for (let c = 0; c < COLLECTIONS; c++) {
      await h.fx.collection({ id: collectionId(c), creator: CREATOR, name: `Herd ${c}` });
      // Uneven sizes (collection 2 has none), versions interleaved across collections.
      for (let n = 0; n < (c * 5) % 7; n++) {
        version += 3;
        await h.fx.listing({
          id: `l${c}-${n}`,
          tokenId: addr(0x80000 + c * 100 + n),
          tokenName: `${names[(c + n) % names.length]} #${n}`,
          collectionId: collectionId(c),
          collection: `Herd ${c}`,
          creator: CREATOR,
          seller: SELLER,
          price: String(100 + ((c * 37 + n * 11) % 50)),
          status: n === 3 ? 'sold' : 'active',
          version: (version * 7919) % 1000,
        });
      }
    }
    // The ranking in an order unlike the collections' ids.
    await h.test.db
      .insertInto('ranking_snapshots')
      .values(
        Array.from({ length: RANKED }, (_, i) => ({
          ranking: 'trending',
          position: i + 1,
          collection_id: collectionId((i * 5 + 3) % RANKED),
          lootbox_id: null,
          score: RANKED - i,
          metrics: JSON.stringify({}),
          computed_at: new Date(),
        })),
      )
      .execute();
  });
  afterAll(() => h.close());

  const walk = async (query: string, limit: number) => {
    const byNumber: string[] = [];
    const byCursor: string[] = [];
    let total = -1;
    for (let page = 1; ; page++) {
      const body = (
        await h.get(`/market/listing-cards?${query}&limit=${limit}&page=${page}`)
      ).json() as PageBody;
      byNumber.push(...body.data.map((c) => c.listingId));
      total = body.pagination.total;
      if (!body.pagination.hasMore) break;
    }
    let cursor: string | null = null;
    do {
      const at: string = cursor ? `&cursor=${cursor}` : '';
      const body = (await h.get(`/market/listing-cards?${query}&limit=${limit}${at}`)).json() as PageBody;
      byCursor.push(...body.data.map((c) => c.listingId));
      cursor = body.pagination.nextCursor;
    } while (cursor);
    return { byNumber, byCursor, total };
  };

  it('byPopular: ranked collections in ranking order, then the unranked, newest first within each', async () => {
    const { rows } = await sql<{ listing_id: string }>`
      SELECT l.listing_id FROM listings l
        LEFT JOIN ranking_snapshots rs ON rs.ranking = 'trending' AND rs.collection_id = l.collection_id
       WHERE l.status = 'active'
       ORDER BY coalesce(rs.position, 2147483647), l.listed_version DESC, l.marketplace, l.listing_id`.execute(
      h.test.db,
    );
    const expected = rows.map((r) => r.listing_id);
    expect(expected.length).toBeGreaterThan(20);
    for (const limit of [1, 3, 7, 100]) {
      const { byNumber, byCursor, total } = await walk('byPopular=true', limit);
      expect(byNumber, `limit ${limit}`).toEqual(expected);
      expect(byCursor, `limit ${limit}`).toEqual(expected);
      expect(total).toBe(expected.length);
    }
  });

  it('a searchable text by popularity: its matches in ranking order, every page', async () => {
    for (const text of ['wizard', 'Herd 4']) {
      const pattern = `%${text}%`;
      const { rows } = await sql<{ listing_id: string }>`
        SELECT l.listing_id FROM listings l
          LEFT JOIN ranking_snapshots rs ON rs.ranking = 'trending' AND rs.collection_id = l.collection_id
         WHERE l.status = 'active'
           AND (l.token_name ILIKE ${pattern} OR l.token_name % ${text} OR l.collection_id IN (
                SELECT collection_id FROM collections WHERE collection_name ILIKE ${pattern} OR collection_name % ${text}))
         ORDER BY coalesce(rs.position, 2147483647), l.listed_version DESC, l.marketplace, l.listing_id`.execute(
        h.test.db,
      );
      const expected = rows.map((r) => r.listing_id);
      expect(expected.length, text).toBeGreaterThan(2);
      for (const limit of [2, 5]) {
        const { byNumber, byCursor, total } = await walk(
          `byPopular=true&search=${encodeURIComponent(text)}`,
          limit,
        );
        expect(byNumber, `${text} limit ${limit}`).toEqual(expected);
        expect(byCursor, `${text} limit ${limit}`).toEqual(expected);
        expect(total, text).toBe(expected.length);
      }
    }
  });

  it('a searchable text: its matches newest first, every page', async () => {
    for (const text of ['wizard', 'Samurai #1', 'Herd 4', 'koala']) {
      const pattern = `%${text}%`;
      const { rows } = await sql<{ listing_id: string }>`
        SELECT l.listing_id FROM listings l
         WHERE l.status = 'active'
           AND (l.token_name ILIKE ${pattern} OR l.token_name % ${text} OR l.collection_id IN (
                SELECT collection_id FROM collections WHERE collection_name ILIKE ${pattern} OR collection_name % ${text}))
         ORDER BY l.listed_version DESC, l.marketplace, l.listing_id`.execute(h.test.db);
      const expected = rows.map((r) => r.listing_id);
      expect(expected.length, text).toBeGreaterThan(2);
      for (const limit of [2, 5]) {
        const { byNumber, byCursor, total } = await walk(`search=${encodeURIComponent(text)}`, limit);
        expect(byNumber, `${text} limit ${limit}`).toEqual(expected);
        expect(byCursor, `${text} limit ${limit}`).toEqual(expected);
        expect(total, text).toBe(expected.length);
      }
    }
  });
});
