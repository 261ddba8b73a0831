import { sql } from '@mdq/db';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUYER,
  CACHED,
  CAT_LISTING,
  COLLECTION,
  CREATOR,
  OWNER,
  seedCachedRoutes,
  seedCats,
  TOKEN,
  triggerlessClient,
} from './support/cached-routes';
import { type ApiHarness, addr, createHarness } from './support/fixtures';

describe('version-keyed response cache', () => {
  let h: ApiHarness;
  let hidden: pg.Client;

  beforeAll(async () => {
    h = await createHarness();
    await seedCachedRoutes(h);
    // A connection whose writes skip triggers (replication role): rows changed behind the
    // version's back, which only a cache keyed by that version can keep answering the old way.
    hidden = await triggerlessClient(h.test.url);
  });

  afterAll(async () => {
    await hidden?.end();
    await h?.close();
  });

  it('serves the same body while the read version stands, and a new answer at once when it moves', async () => {
    const before = new Map<string, string>();
    for (const url of CACHED) {
      const response = await h.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['etag'], url).toMatch(/^W\/"/);
      expect(response.headers['x-mdq-indexed-version'], url).toBe('3');
      before.set(url, response.body);
    }

    // The rows the cached routes read disappear without touching the version. All but the
    // collections themselves and the token the token pages name: a collection page's key resolves
    // its (creator, name) pair to the collections that have it at each reading, a token page's its
    // token to its collection, so a hidden delete of those would change the key.
    await hidden.query(`DELETE FROM listings; DELETE FROM marketplace_activities; DELETE FROM token_activities;
      DELETE FROM token_ownerships; DELETE FROM token_attributes; DELETE FROM token_rarity;
      DELETE FROM ranking_snapshots; DELETE FROM tokens WHERE token_data_id <> '${TOKEN}'; DELETE FROM lootboxes;
      DELETE FROM token_offers`);
    for (const url of CACHED) {
      const response = await h.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(before.get(url));
    }

    // The indexer commits its next version: the checkpoint moves in the batch transaction that
    // writes the tables (here a TRUNCATE of each, which fires the triggers a row change would).
    await h.test.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('indexer_checkpoints')
        .set({ last_version: 4 })
        .where('name', '=', 'default')
        .execute();
      await sql`TRUNCATE listings, marketplace_activities, token_activities, token_ownerships, token_attributes,
        token_rarity, ranking_snapshots, tokens, collections, lootboxes, token_offers`.execute(trx);
    });
    for (const url of CACHED) {
      const response = await h.get(url);
      expect(`${response.statusCode} ${response.body}`, url).not.toBe(`200 ${before.get(url)}`);
      // The header comes from the same reading the cache keyed the answer by: no 250 ms lag.
      expect(response.headers['x-mdq-indexed-version'], url).toBe('4');
    }
  });

  it('a write by any other writer (worker, operator) also changes the answer at once', async () => {
    const url = '/rankings/trending-collections';
    const first = (await h.get(url)).json() as { data: unknown[] };
    await h.fx.collection({ id: addr(0x200), creator: CREATOR, name: 'Dogs' });
    await h.test.db
      .insertInto('ranking_snapshots')
      .values({
        ranking: 'trending',
        position: 1,
        collection_id: addr(0x200),
        lootbox_id: null,
        score: 1,
        metrics: JSON.stringify({ volume: '5', sales: 1 }),
        computed_at: new Date(),
      })
      .execute();
    const second = (await h.get(url)).json() as { data: { collectionId: string }[] };
    expect(second.data.length).toBe(first.data.length + 1);
    expect(second.data[0]?.collectionId).toBe(addr(0x200));
  });

  it('answers 304 to a matching If-None-Match and revalidation is required', async () => {
    const url = '/market/listing-cards?page=1';
    const first = await h.get(url);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await h.get(url, { headers: { 'if-none-match': String(first.headers['etag']) } });
    expect(again.statusCode).toBe(304);
  });
});

describe('the cache bounds: a body dropped for room is counted, one replaced by a newer answer is not', () => {
  let h: ApiHarness;
  // Two bodies at most: asking three URLs makes room once.
  beforeAll(async () => {
    h = await createHarness({ cache: { entries: 2, megabytes: 64 } });
    await seedCachedRoutes(h);
  });
  afterAll(() => h?.close());

  const evictions = async () => {
    const line = (await h.app.inject('/metrics')).body
      .split('\n')
      .find((l) => l.startsWith('mdq_api_cache_evictions_total '));
    return Number(line?.split(' ').at(-1));
  };

  it('evicts the least recently used body at the bound, and its URL is a miss again', async () => {
    const [a, b, c] = [
      '/rankings/trending-collections',
      '/rankings/daily-picks',
      '/rankings/top-collections',
    ];
    const start = await evictions();
    expect((await h.get(a)).headers['x-mdq-cache']).toBe('miss');
    expect((await h.get(b)).headers['x-mdq-cache']).toBe('miss');
    expect((await h.get(a)).headers['x-mdq-cache']).toBe('hit');
    expect(await evictions()).toBe(start);
    // The third body takes the place of the least recently used, b; a stays.
    expect((await h.get(c)).headers['x-mdq-cache']).toBe('miss');
    expect(await evictions()).toBe(start + 1);
    expect((await h.get(a)).headers['x-mdq-cache']).toBe('hit');
    expect((await h.get(b)).headers['x-mdq-cache']).toBe('miss');
    expect(await evictions()).toBe(start + 2);

    // A write the rankings read: the next answer of b replaces its body, which is not room made.
    await h.test.db.deleteFrom('ranking_snapshots').execute();
    expect((await h.get(b)).headers['x-mdq-cache']).toBe('miss');
    expect(await evictions()).toBe(start + 2);
  });
});

describe('a cached answer that moves with the clock', () => {
  const START = Date.parse('2026-06-01T12:00:00Z');
  let clock = START - 3_600_000;
  let h: ApiHarness;

  beforeAll(async () => {
    h = await createHarness({ clock: () => new Date(clock) });
    await h.fx.collection({ id: COLLECTION, creator: CREATOR, name: 'Cats', lootboxId: 7 });
    await h.fx.lootbox({
      id: 7,
      creator: CREATOR,
      name: 'Cats',
      collectionId: COLLECTION,
      mintStart: new Date(START).toISOString(),
      mintEnd: new Date(START + 86_400_000).toISOString(),
    });
  });
  afterAll(async () => h?.close());

  it("changes a lootbox's status at mint start and end, with no write in between", async () => {
    const url = `/lootbox?creator=${CREATOR}&collection=Cats`;
    const statusAt = async (at: number) => {
      clock = at;
      return ((await h.get(url)).json() as { data: { status: string } }).data.status;
    };
    expect(await statusAt(START - 3_600_000)).toBe('upcoming');
    expect(await statusAt(START - 1_000)).toBe('upcoming');
    expect(await statusAt(START)).toBe('active');
    expect(await statusAt(START + 3_600_000)).toBe('active');
    expect(await statusAt(START + 86_400_000)).toBe('ended');
  });

  it('moves the lootbox rankings at mint start, with no write in between', async () => {
    const at = async (when: number) => {
      clock = when;
      const recent = (await h.get('/rankings/recent-added')).json();
      const upcoming = (await h.get('/rankings/by-upcoming')).json();
      return {
        status: recent.data[0]?.status,
        upcoming: upcoming.data.length,
        upcomingTotal: upcoming.pagination.total,
      };
    };
    expect(await at(START - 60_000)).toEqual({ status: 'upcoming', upcoming: 1, upcomingTotal: 1 });
    expect(await at(START - 1_000)).toEqual({ status: 'upcoming', upcoming: 1, upcomingTotal: 1 });
    expect(await at(START)).toEqual({ status: 'active', upcoming: 0, upcomingTotal: 0 });
    expect(await at(START + 86_400_000)).toEqual({ status: 'ended', upcoming: 0, upcomingTotal: 0 });
    // And a new lootbox (a write) is listed at once.
    await h.fx.lootbox({
      id: 8,
      creator: CREATOR,
      name: 'Dogs',
      collectionId: addr(0x200),
      mintStart: new Date(clock + 3_600_000).toISOString(),
    });
    expect(await at(clock)).toEqual({ status: 'upcoming', upcoming: 1, upcomingTotal: 1 });
  });
});

describe('version-keyed response cache on routes that also move with the clock', () => {
  let h: ApiHarness;
  let clock = new Date('2026-06-01T00:00:00Z');
  const expires = '2026-06-01T00:01:00Z';

  beforeAll(async () => {
    h = await createHarness({ clock: () => clock });
    const { fx } = h;
    await seedCats(h, expires);
    await fx.tokenOffer({
      id: 'soon',
      tokenId: TOKEN,
      collectionId: COLLECTION,
      buyer: BUYER,
      price: '80',
      version: 1,
      expires,
    });
    await fx.tokenOffer({
      id: 'open',
      tokenId: TOKEN,
      collectionId: COLLECTION,
      buyer: BUYER,
      price: '70',
      version: 2,
    });
    await h.test.db
      .insertInto('indexer_checkpoints')
      .values({ name: 'default', last_version: 2, last_timestamp: null })
      .execute();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('a bid that expires leaves the cached lists at its expiry, with no write in between', async () => {
    const offers = async (url: string) => {
      const response = await h.get(url);
      expect(response.statusCode, url).toBe(200);
      const body = response.json() as { data: { offerId: string }[]; pagination: { total: number } };
      return { ids: body.data.map((b) => b.offerId), total: body.pagination.total };
    };
    const urls = [
      `/market/bids-by-collection?creator=${CREATOR}&collection=Cats`,
      `/market/user-bids?address=${BUYER}`,
    ];
    clock = new Date('2026-06-01T00:00:00Z');
    for (const url of urls) {
      expect(await offers(url), url).toEqual({
        ids: url.includes('user-bids') ? ['open', 'soon'] : ['soon', 'open'],
        total: 2,
      });
      // Asked again at the same version and before the expiry: the same answer.
      expect((await offers(url)).total, url).toBe(2);
    }
    clock = new Date(expires);
    for (const url of urls) expect(await offers(url), url).toEqual({ ids: ['open'], total: 1 });
  });

  it('by-upcoming: a lootbox written by the indexer is in the next answer at once', async () => {
    clock = new Date('2026-06-01T00:00:00Z');
    const upcoming = async () =>
      ((await h.get('/rankings/by-upcoming')).json() as { data: { lootboxId: number }[] }).data.map(
        (l) => l.lootboxId,
      );
    expect(await upcoming()).toEqual([7]);
    expect(await upcoming()).toEqual([7]);
    await h.fx.lootbox({
      id: 8,
      creator: CREATOR,
      name: 'Dogs',
      collectionId: addr(0x200),
      mintStart: '2026-06-02T00:00:00Z',
    });
    expect(await upcoming()).toEqual([7, 8]);
  });

  it("the lootbox collection's status moves from upcoming to active at mint start", async () => {
    const url = `/token-collection-by-lootbox-creator?creator=${CREATOR}&collection=Cats`;
    const status = async () =>
      ((await h.get(url)).json() as { data: { lootbox: { status: string } } }).data.lootbox.status;
    clock = new Date('2026-06-01T00:00:00Z');
    expect(await status()).toBe('upcoming');
    expect(await status()).toBe('upcoming');
    clock = new Date(expires);
    expect(await status()).toBe('active');
  });
});

describe("a lootbox's revenue: cached within its second, new at once on a write", () => {
  const T = Date.parse('2026-06-02T10:00:00.250Z');
  let clock = T;
  let h: ApiHarness;
  let hidden: pg.Client;
  const url = `/lootbox-revenue?creator=${CREATOR}&collection=Cats&timeframe=24h`;
  const revenue = async (at: number) => {
    clock = at;
    const response = await h.get(url);
    expect(response.statusCode).toBe(200);
    const { data } = response.json() as { data: { to: string; revenue: { amount: string }[] } };
    return { to: data.to, amount: data.revenue[0]?.amount ?? '0' };
  };

  beforeAll(async () => {
    h = await createHarness({ clock: () => new Date(clock) });
    await seedCats(h, '2026-06-01T00:00:00Z');
    await h.fx.purchase({
      version: 1,
      lootboxId: 7,
      buyer: BUYER,
      amount: '100',
      at: '2026-06-01T10:00:05.500Z',
    });
    hidden = await triggerlessClient(h.test.url);
  });
  afterAll(async () => {
    await hidden?.end();
    await h?.close();
  });

  it('ends the window at the request, and keeps that answer until the next whole second', async () => {
    expect(await revenue(T)).toEqual({ to: '2026-06-02T10:00:00.250Z', amount: '100' });
    // A purchase that only a cache keyed by the version and the second would not see.
    await hidden.query(
      `INSERT INTO lootbox_purchases (transaction_version, event_index, lootbox_id, buyer, quantity, amount_paid,
        coin_type, transaction_timestamp) VALUES (2, 0, 7, $1, 1, 50, '0x1::aptos_coin::AptosCoin', '2026-06-02T09:00:00Z')`,
      [BUYER],
    );
    expect(await revenue(T + 500)).toEqual({ to: '2026-06-02T10:00:00.250Z', amount: '100' });
    expect(await revenue(T + 750)).toEqual({ to: '2026-06-02T10:00:01.000Z', amount: '150' });
  });

  it('a purchase the indexer writes is in the next answer at once, within the same second', async () => {
    await h.fx.purchase({ version: 3, lootboxId: 7, buyer: BUYER, amount: '25', at: '2026-06-02T09:30:00Z' });
    expect(await revenue(T + 800)).toEqual({ to: '2026-06-02T10:00:01.050Z', amount: '175' });
  });

  it('a purchase leaves the 24h window with the clock, at most a second late, with no write in between', async () => {
    // The first purchase (10:00:05.5 the day before) is in the window ending 10:00:05.4.
    expect(await revenue(Date.parse('2026-06-02T10:00:05.400Z'))).toEqual({
      to: '2026-06-02T10:00:05.400Z',
      amount: '175',
    });
    // Within the same second the kept answer stands, though the purchase has just left the window.
    expect(await revenue(Date.parse('2026-06-02T10:00:05.600Z'))).toEqual({
      to: '2026-06-02T10:00:05.400Z',
      amount: '175',
    });
    expect(await revenue(Date.parse('2026-06-02T10:00:06.100Z'))).toEqual({
      to: '2026-06-02T10:00:06.100Z',
      amount: '75',
    });
  });
});

describe('inventory history: cached until its buckets move, new at once on a write', () => {
  const T = Date.parse('2026-06-02T10:20:00.250Z');
  let clock = T;
  let h: ApiHarness;
  let hidden: pg.Client;
  /** The x-mdq-cache header of the last answer `series` read. */
  let cacheOf: unknown;
  const series = async (at: number, range = '24h') => {
    clock = at;
    const response = await h.get(`/user/inventory-history-data?address=${OWNER}&range=${range}`);
    expect(response.statusCode).toBe(200);
    cacheOf = response.headers['x-mdq-cache'];
    return (
      response.json() as { data: { points: { timestamp: string; tokenCount: number; live: boolean }[] } }
    ).data.points;
  };
  const snapshot = (at: string, tokens: number) =>
    h.test.db
      .insertInto('user_inventory_snapshots')
      .values({ owner_address: OWNER, snapshot_at: at, token_count: tokens, floor_value: '0' })
      .execute();

  beforeAll(async () => {
    h = await createHarness({ clock: () => new Date(clock) });
    await seedCats(h, '2026-06-01T00:00:00Z');
    await h.fx.ownership({ tokenId: TOKEN, owner: OWNER, collectionId: COLLECTION });
    hidden = await triggerlessClient(h.test.url);
  });
  afterAll(async () => {
    await hidden?.end();
    await h?.close();
  });

  it('a live point is stamped to the second and computed for every request, never kept', async () => {
    expect(await series(T)).toEqual([
      { timestamp: '2026-06-02T10:20:00.000Z', tokenCount: 1, floorValue: '0', live: true },
    ]);
    // Behind the counters' back, within the same second: a kept answer would still say 1.
    await hidden.query('DELETE FROM token_ownerships');
    expect(await series(T + 500)).toEqual([
      { timestamp: '2026-06-02T10:20:00.000Z', tokenCount: 0, floorValue: '0', live: true },
    ]);
    expect(cacheOf).toBe('miss');
  });

  it('a snapshot the worker writes is in the next answer at once', async () => {
    await snapshot('2026-06-02T09:00:00Z', 4);
    const points = await series(T + 900);
    expect(points.at(-1)).toMatchObject({
      timestamp: '2026-06-02T10:00:00.000Z',
      tokenCount: 4,
      live: false,
    });
  });

  it("keeps a series read from snapshots across the chain's writes to what a live point reads", async () => {
    const before = await series(T + 950);
    await h.fx.ownership({ tokenId: addr(0x1002), owner: OWNER, collectionId: COLLECTION });
    await h.fx.listing({ ...CAT_LISTING, id: 'inventory-l1', price: '10', version: 4 });
    expect(await series(T + 960)).toEqual(before);
    expect(cacheOf).toBe('hit');
  });

  it('keeps the answer within the hour, and adds the next bucket when the clock reaches it', async () => {
    const before = await series(T + 1000);
    // Behind the version's back: only a cache would still answer 4 for the current hour.
    await hidden.query(`UPDATE user_inventory_snapshots SET token_count = 5`);
    expect(await series(Date.parse('2026-06-02T10:59:59.999Z'))).toEqual(before);
    const next = await series(Date.parse('2026-06-02T11:00:00.000Z'));
    expect(next.at(-1)).toMatchObject({ timestamp: '2026-06-02T11:00:00.000Z', tokenCount: 5 });
    expect(next.length).toBe(before.length + 1);
  });

  it('a snapshot dated ahead of the clock joins when the clock passes it, with no write in between', async () => {
    await snapshot('2026-06-02T11:30:00Z', 7);
    expect((await series(Date.parse('2026-06-02T11:10:00Z'))).at(-1)?.tokenCount).toBe(5);
    expect((await series(Date.parse('2026-06-02T11:30:00.001Z'))).at(-1)?.tokenCount).toBe(7);
  });
});

describe('collection analytics: trailing windows cached within their second, history within its bucket', () => {
  // Sales are at at(version): 2026-11-01T00:00:0v, inside every window ending at T.
  const T = Date.parse('2026-11-01T12:00:00.250Z');
  let clock = T;
  let h: ApiHarness;
  const ask = async (url: string, when: number) => {
    clock = when;
    const response = await h.get(url);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return {
      cache: response.headers['x-mdq-cache'],
      header: response.headers['x-mdq-indexed-version'],
      body: response.json() as { data: Record<string, unknown>; freshness: { indexedVersion: number } },
    };
  };
  const sale = (version: number, price: string) =>
    h.fx.marketActivity({
      version,
      kind: 'fill_listing',
      tokenId: TOKEN,
      collectionId: COLLECTION,
      collection: 'Cats',
      creator: CREATOR,
      price,
      seller: OWNER,
      buyer: BUYER,
    });

  beforeAll(async () => {
    h = await createHarness({ clock: () => new Date(clock) });
    await seedCats(h, '2026-06-01T00:00:00Z');
    await sale(3, '90');
    await h.test.db
      .insertInto('indexer_checkpoints')
      .values({ name: 'default', last_version: 3, last_timestamp: null })
      .execute();
  });
  afterAll(async () => h?.close());

  /**
   * Asks `url` at `t0`, again within its second (the stored body), after a sale within it (a new
   * answer at once) and past the second (not served any longer): the answers, for the figures.
   */
  const withinTheSecond = async (url: string, t0: number, version: number, price: string) => {
    const first = await ask(url, t0);
    const again = await ask(url, t0 + 500);
    await sale(version, price);
    const after = await ask(url, t0 + 600);
    const next = await ask(url, t0 + 1_600);
    expect([first.cache, again.cache, after.cache, next.cache]).toEqual(['miss', 'hit', 'miss', 'miss']);
    expect(again.body).toEqual(first.body);
    return { first, after, next };
  };

  it('collection-stats: a hit within the second, a miss with the new figure on a sale, none past the second', async () => {
    const { first, after, next } = await withinTheSecond(
      `/collection-stats?collectionId=${COLLECTION}&window=24h`,
      T,
      4,
      '10',
    );
    // The stored body's windowEnd is the instant it was computed; a sale is in the very next answer.
    expect(first.body.data).toMatchObject({ sales: 1, volume: '90', windowEnd: '2026-11-01T12:00:00.250Z' });
    expect(after.body.data).toMatchObject({ sales: 2, volume: '100', windowEnd: '2026-11-01T12:00:00.850Z' });
    expect(next.body.data).toMatchObject({ sales: 2, windowEnd: '2026-11-01T12:00:01.850Z' });
  });

  it('collection-top-traders: the same, for the window ending at the request', async () => {
    const volume = (body: { data: Record<string, unknown> }) =>
      (body.data['buyers'] as { address: string; volume: string }[]).map((b) => b.volume);
    const { first, after } = await withinTheSecond(
      `/collection-top-traders?collectionId=${COLLECTION}&window=24h`,
      T + 2_000,
      5,
      '5',
    );
    expect(volume(first.body)).toEqual(['100']);
    expect(volume(after.body)).toEqual(['105']);
  });

  it('collection-history: the default range is kept until its last bucket ends; an explicit one by writes alone', async () => {
    const url = `/collection-history?collectionId=${COLLECTION}&interval=1h`;
    type Bucket = { start: string; volume: string };
    const buckets = (body: { data: Record<string, unknown> }) => body.data['buckets'] as Bucket[];
    const first = await ask(url, T);
    expect(first.cache).toBe('miss');
    expect(buckets(first.body).at(-1)?.start).toBe('2026-11-01T12:00:00.000Z');
    expect(buckets(first.body).find((b) => b.start === '2026-11-01T00:00:00.000Z')?.volume).toBe('105');
    // Later in the same hour: the same buckets, kept.
    expect((await ask(url, Date.parse('2026-11-01T12:59:59.999Z'))).cache).toBe('hit');
    // A sale is a write: the next answer has it.
    await sale(6, '20');
    const after = await ask(url, Date.parse('2026-11-01T12:59:59.999Z'));
    expect(after.cache).toBe('miss');
    expect(buckets(after.body).find((b) => b.start === '2026-11-01T00:00:00.000Z')?.volume).toBe('125');
    // The next hour adds its bucket, with no write in between.
    const next = await ask(url, Date.parse('2026-11-01T13:00:00.000Z'));
    expect(next.cache).toBe('miss');
    expect(buckets(next.body).at(-1)?.start).toBe('2026-11-01T13:00:00.000Z');

    // An explicit range does not move with the clock: kept a day later.
    const fixed = `${url}&from=2026-10-31T00:00:00Z&to=2026-11-01T06:00:00Z`;
    expect((await ask(fixed, T)).cache).toBe('miss');
    const later = await ask(fixed, T + 86_400_000);
    expect(later.cache).toBe('hit');

    // The indexer's checkpoint moves and no table the figures read does: still a hit, whose body
    // says the version it was computed at and whose header says the current one.
    await h.test.db
      .updateTable('indexer_checkpoints')
      .set({ last_version: 7 })
      .where('name', '=', 'default')
      .execute();
    const moved = await ask(fixed, T + 86_400_000);
    expect(moved.cache).toBe('hit');
    expect(moved.header).toBe('7');
    expect(moved.body.freshness.indexedVersion).toBe(3);
    expect(moved.body).toEqual(later.body);
  });
});
