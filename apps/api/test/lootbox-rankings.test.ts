import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, addr, createHarness } from './support/fixtures';

const CREATOR = addr(0xc1);
const BUYER = addr(0xb1);
const HOUR = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();

describe('lootbox and ranking routes', () => {
  let h: ApiHarness;

  beforeAll(async () => {
    h = await createHarness();
    const { fx } = h;
    const tiers = [
      { name: 'common', weight: '70', maxSupply: '70', minted: '3' },
      { name: 'rare', weight: '25', maxSupply: '25', minted: '1' },
      { name: 'legendary', weight: '5', maxSupply: '5' },
    ];
    await fx.collection({ id: addr(0x101), creator: CREATOR, name: 'Active', lootboxId: 1 });
    await fx.lootbox({
      id: 1,
      creator: CREATOR,
      name: 'Active',
      collectionId: addr(0x101),
      mintStart: ago(48),
      maxSupply: '100',
      purchased: '4',
      minted: '4',
      tiers,
      version: 10,
    });
    await fx.lootbox({
      id: 2,
      creator: CREATOR,
      name: 'Soon',
      collectionId: addr(0x102),
      mintStart: ago(-24),
      version: 20,
    });
    await fx.lootbox({
      id: 3,
      creator: CREATOR,
      name: 'Later',
      collectionId: addr(0x103),
      mintStart: ago(-48),
      version: 30,
    });
    await fx.lootbox({
      id: 4,
      creator: CREATOR,
      name: 'Gone',
      collectionId: addr(0x104),
      mintStart: ago(100),
      mintEnd: ago(50),
      version: 40,
    });
    await fx.lootbox({
      id: 5,
      creator: CREATOR,
      name: 'Sold',
      collectionId: addr(0x105),
      mintStart: ago(100),
      maxSupply: '2',
      purchased: '2',
      version: 50,
    });
    await fx.purchase({ version: 100, lootboxId: 1, buyer: BUYER, amount: '300', quantity: '3', at: ago(1) });
    await fx.purchase({ version: 101, lootboxId: 1, buyer: BUYER, amount: '100', at: ago(72) });
    await fx.purchase({ version: 102, lootboxId: 1, buyer: BUYER, amount: '100', at: ago(24 * 20) });
    for (let position = 1; position <= 12; position++) {
      const id = addr(0x900 + position);
      await fx.collection({ id, creator: CREATOR, name: `Ranked ${position}` });
      await h.test.db
        .insertInto('ranking_snapshots')
        .values({
          ranking: 'trending',
          position,
          collection_id: id,
          lootbox_id: null,
          score: 1 - position / 100,
          metrics: JSON.stringify({ volume: String(1000 - position), sales: 3 }),
          computed_at: new Date(),
        })
        .execute();
    }
    for (let n = 1; n <= 3; n++) {
      await h.test.db
        .insertInto('token_rarity')
        .values({
          token_data_id: addr(0x5000 + n),
          collection_id: addr(0x101),
          score: 1 / n,
          rank: n,
          trait_count: 2,
          computed_at: new Date(),
        })
        .execute();
    }
  });
  afterAll(() => h.close());

  it('lootbox gives its status (upcoming, active, sold out, ended), tiers, and answers 304 to a matching ETag', async () => {
    const statuses: Record<string, string> = {
      Active: 'active',
      Soon: 'upcoming',
      Gone: 'ended',
      Sold: 'sold_out',
    };
    for (const [name, status] of Object.entries(statuses)) {
      const res = await h.get(`/lootbox?creator=${CREATOR}&collection=${name}`);
      expect(res.json().data.status, name).toBe(status);
    }
    const res = await h.get(`/lootbox?creator=${CREATOR}&collection=Active`);
    expect(res.json().data).toMatchObject({
      lootboxId: 1,
      price: '100000000',
      purchased: '4',
      tiers: [{ name: 'common' }, { name: 'rare' }, { name: 'legendary' }],
    });
    const etag = String(res.headers.etag);
    const cached = await h.get(`/local/lootbox?creator=${CREATOR}&collection=Active`, {
      headers: { 'if-none-match': etag },
    });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    expect((await h.get(`/lootbox?creator=${CREATOR}&collection=Nope`)).statusCode).toBe(404);
    expect((await h.get('/lootbox?collection=Active')).json().message).toContain("'creator'");
  });

  it('lootbox-revenue sums purchases in the window', async () => {
    const expected: Record<string, string> = { '24h': '300', '7d': '400', '30d': '500', all: '500' };
    for (const [timeframe, amount] of Object.entries(expected)) {
      const res = (
        await h.get(`/lootbox-revenue?creator=${CREATOR}&collection=Active&timeframe=${timeframe}`)
      ).json();
      expect(res.data.revenue, timeframe).toEqual([
        {
          coinType: '0x1::aptos_coin::AptosCoin',
          amount,
          purchases: timeframe === '24h' ? 1 : Number(amount) / 100 - 2,
          quantity: String(Number(amount) / 100),
        },
      ]);
    }
    expect(
      (await h.get(`/lootbox-revenue?creator=${CREATOR}&collection=Active&timeframe=1y`)).statusCode,
    ).toBe(400);
    expect((await h.get(`/lootbox-revenue?creator=${CREATOR}&collection=Active`)).json().message).toContain(
      "'timeframe'",
    );
  });

  it('rarities-by-lootbox gives the tier table with probabilities', async () => {
    const res = (await h.get('/rarities-by-lootbox?lootboxId=1')).json();
    expect(res.data.tiers).toEqual([
      { name: 'common', position: 0, weight: '70', probability: 0.7, maxSupply: '70', minted: '3' },
      { name: 'rare', position: 1, weight: '25', probability: 0.25, maxSupply: '25', minted: '1' },
      { name: 'legendary', position: 2, weight: '5', probability: 0.05, maxSupply: '5', minted: '0' },
    ]);
    expect((await h.get('/rarities-by-lootbox?lootboxId=42')).statusCode).toBe(404);
  });

  it('rarities-by-collection lists token_rarity rows rarest first', async () => {
    const res = (await h.get(`/rarities-by-collection?creator=${CREATOR}&collection=Active&limit=2`)).json();
    expect(res.data.map((r: { rank: number }) => r.rank)).toEqual([1, 2]);
    expect(res.pagination).toMatchObject({ total: 3, hasMore: true });
  });

  it('collection rankings page by position; limit only 1, 10 or 100', async () => {
    const first = await h.get('/rankings/trending-collections');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.pagination).toMatchObject({ page: 1, limit: 10, total: 12, hasMore: true });
    expect(body.pagination.nextCursor).toEqual(expect.any(String));
    expect(body.data[0]).toMatchObject({
      rank: 1,
      collection: 'Ranked 1',
      metrics: { volume: '999', sales: 3 },
    });
    const second = (await h.get('/local/rankings/trending-collections?page=2')).json();
    expect(second.data.map((r: { rank: number }) => r.rank)).toEqual([11, 12]);
    expect(second.pagination).toMatchObject({ hasMore: false, nextCursor: null });
    const next = `/rankings/trending-collections?cursor=${body.pagination.nextCursor}`;
    expect((await h.get(next)).json().data).toEqual(second.data);
    expect((await h.get('/rankings/trending-collections?limit=100')).json().data).toHaveLength(12);
    expect((await h.get('/rankings/trending-collections?limit=1')).json().data).toHaveLength(1);
    for (const bad of ['5', '0', '1000', 'ten']) {
      const res = await h.get(`/rankings/top-collections?limit=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toContain("'limit'");
    }
    expect((await h.get('/rankings/top-collections?limit=5')).json().message).toBe(
      "invalid querystring parameter 'limit': must be one of 1, 10, 100",
    );
    expect(
      (await h.get(`/lootbox-revenue?creator=${CREATOR}&collection=Active&timeframe=1y`)).json().message,
    ).toBe("invalid querystring parameter 'timeframe': must be one of 24h, 7d, 30d, all");
    expect((await h.get('/rankings/daily-picks')).json().data).toEqual([]);
    expect(first.headers['cache-control']).toBe('private, max-age=60');
  });

  it('recent-added and by-upcoming read lootboxes', async () => {
    const recent = (await h.get('/rankings/recent-added')).json();
    expect(recent.data.map((l: { lootboxId: number }) => l.lootboxId)).toEqual([5, 4, 3, 2, 1]);
    const upcoming = (await h.get('/rankings/by-upcoming')).json();
    expect(upcoming.data.map((l: { lootboxId: number; status: string }) => [l.lootboxId, l.status])).toEqual([
      [2, 'upcoming'],
      [3, 'upcoming'],
    ]);
    expect(upcoming.pagination.total).toBe(2);
    // By cursor, each row keeps its rank in the whole list; the last page says so with no cursor.
    for (const path of ['/rankings/recent-added', '/rankings/by-upcoming']) {
      const whole = (await h.get(path)).json().data;
      const seen: unknown[] = [];
      let body = (await h.get(`${path}?limit=1`)).json();
      seen.push(...body.data);
      while (body.pagination.hasMore) {
        expect(body.pagination.nextCursor, path).toEqual(expect.any(String));
        body = (await h.get(`${path}?limit=1&cursor=${body.pagination.nextCursor}`)).json();
        seen.push(...body.data);
      }
      expect(body.pagination.nextCursor, path).toBeNull();
      expect(seen, path).toEqual(whole);
    }
  });
});
