import { CollectionStats } from '@mdq/contracts';
import { createApiKey } from '@mdq/db';
import { writeCollectionSnapshots } from '@mdq/db/worker';
import type { CollectionFacts, DevnetFacts, SaleFact } from '@mdq/devnet';
import { createIndexedDatabase, type IndexedDatabase } from '@mdq/indexer/testing';
import type { FastifyInstance } from 'fastify';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';
import { CollectionHistory, Fresh, TopTraders, TraitFloors } from '../src/routes/collection';

/*
 * The analytics endpoints over a devnet chain ingested by the real indexer, checked against the
 * generator's facts: its sale list (with wash labels), its floors, holders, supplies and token
 * listing prices — never against the API's own SQL. The clock is pinned to the chain's end.
 */
const WINDOWS = ['1h', '24h', '7d', '30d', 'all'] as const;
const WINDOW_US = {
  '1h': 3_600_000_000n,
  '24h': 86_400_000_000n,
  '7d': 604_800_000_000n,
  '30d': 2_592_000_000_000n,
};
const FORMS = ['/local/api', '/local'] as const;

describe('analytics over an indexed devnet chain', () => {
  let indexed: IndexedDatabase;
  let app: FastifyInstance;
  let key: string;
  let facts: DevnetFacts;
  let nowUs: bigint;
  let chainNow: Date;

  const request = async (path: string) =>
    app
      .inject({ url: path, headers: { 'x-api-key': key } })
      .then((r) => ({ status: r.statusCode, body: r.json() }));
  const get = async (path: string) => {
    const res = await request(path);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  const q = encodeURIComponent;
  const startOf = (w: (typeof WINDOWS)[number]) => (w === 'all' ? null : nowUs - WINDOW_US[w]);
  const salesIn = (c: CollectionFacts, from: bigint | null, withFlagged: boolean) =>
    facts.sales.filter(
      (s) =>
        s.collectionId === c.collectionId &&
        (from === null || BigInt(s.timestampUs) >= from) &&
        BigInt(s.timestampUs) <= nowUs &&
        (withFlagged || s.wash === null),
    );
  const sum = (sales: SaleFact[]) => sales.reduce((a, s) => a + BigInt(s.price), 0n);
  const extreme = (values: bigint[], better: (a: bigint, b: bigint) => boolean) =>
    values.length === 0 ? null : String(values.reduce((a, b) => (better(b, a) ? b : a)));
  // The floor at instant t from the facts' listing log: each listing open at t at its last price before t.
  const floorAt = (c: CollectionFacts, t: bigint) => {
    const asks: bigint[] = [];
    for (const l of facts.listings) {
      if (l.collectionId !== c.collectionId || (l.end !== null && BigInt(l.end.timestampUs) < t)) continue;
      const price = l.prices.filter((p) => BigInt(p.timestampUs) < t).at(-1)?.price;
      if (price !== undefined) asks.push(BigInt(price));
    }
    return extreme(asks, (a, b) => a < b);
  };
  // The highest collection offer neither cancelled, fully filled nor expired at the chain's end.
  const bestOffer = (c: CollectionFacts) =>
    extreme(
      facts.collectionOffers
        .filter((o) => o.collectionId === c.collectionId && o.end === null && BigInt(o.expiresUs) > nowUs)
        .map((o) => BigInt(o.price)),
      (a, b) => a > b,
    );

  beforeAll(async () => {
    indexed = await createIndexedDatabase({ seed: 11, preset: 'tiny', endTimeMs: Date.now() });
    facts = indexed.facts;
    nowUs = BigInt(facts.chain.nowUs);
    chainNow = new Date(Number(nowUs / 1000n));
    // One hourly snapshot at the chain's end: the last history bucket's floor comes from it.
    await writeCollectionSnapshots(indexed.db, chainNow);
    app = await buildApp({ db: indexed.db, network: 'local', clock: () => chainNow });
    key = (await createApiKey(indexed.db, { name: 'analytics' })).key;
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    await indexed?.close();
  });

  it('the devnet chain has labelled wash trades to leave out', () => {
    expect(facts.sales.some((s) => s.wash !== null)).toBe(true);
  });

  it('the devnet chain has what the floor and offer checks need to tell right from wrong', () => {
    // A listing repriced after a window start: its price at the start is not its price now.
    const repricedAcross = facts.listings.filter((l) =>
      WINDOWS.some((w) => {
        const start = startOf(w);
        return (
          start !== null &&
          l.prices.length > 1 &&
          BigInt(l.prices[0]?.timestampUs ?? 0) < start &&
          BigInt(l.prices.at(-1)?.timestampUs ?? 0) >= start
        );
      }),
    );
    expect(repricedAcross.length).toBeGreaterThan(0);
    expect(facts.collections.filter((c) => bestOffer(c) !== null).length).toBeGreaterThan(0);
    // Offers that ended or lapsed, so "live" has something to leave out.
    expect(facts.collectionOffers.some((o) => o.end !== null)).toBe(true);
    expect(facts.collectionOffers.some((o) => o.end === null && BigInt(o.expiresUs) <= nowUs)).toBe(true);
  });

  it('collection-stats: every window, both path forms, with and without flagged sales', async () => {
    for (const c of facts.collections) {
      const tokens = facts.tokens[c.collectionId] ?? [];
      const held = new Map<string, number>();
      for (const t of tokens) held.set(t.owner, (held.get(t.owner) ?? 0) + 1);
      const top10 = [...held.values()]
        .sort((a, b) => b - a)
        .slice(0, 10)
        .reduce((a, n) => a + n, 0);
      for (const window of WINDOWS) {
        for (const withFlagged of [false, true]) {
          const sales = salesIn(c, startOf(window), withFlagged);
          const prices = sales.map((s) => BigInt(s.price)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          const volume = sum(sales);
          const flagged = salesIn(c, startOf(window), true).filter((s) => s.wash !== null);
          const start = startOf(window);
          const floorAtStart = start === null ? null : floorAt(c, start);
          if (window === '24h' || window === '7d' || window === '30d')
            expect(floorAtStart, `${c.name} ${window} facts`).toBe(c.floor[window]);
          const form = FORMS[withFlagged ? 1 : 0];
          const body = await get(
            `${form}/collection-stats?creator=${c.creator}&collection=${q(c.name)}&window=${window}${withFlagged ? '&includeFlagged=true' : ''}`,
          );
          const label = `${c.name} ${window} flagged=${withFlagged}`;
          expect(body.data, label).toMatchObject({
            collectionId: c.collectionId,
            window,
            includeFlagged: withFlagged,
            volume: String(volume),
            sales: sales.length,
            averageSale: sales.length === 0 ? null : String(volume / BigInt(sales.length)),
            medianSale: sales.length === 0 ? null : String(prices[Math.ceil(prices.length / 2) - 1]),
            uniqueBuyers: new Set(sales.map((s) => s.buyer)).size,
            uniqueSellers: new Set(sales.map((s) => s.seller)).size,
            flaggedSales: flagged.length,
            flaggedVolume: String(sum(flagged)),
            floor: c.floor.now,
            listedCount: c.activeListings,
            holders: c.holders,
            supply: String(c.supply),
            minted: String(c.minted),
            burned: String(c.burned),
          });
          expect(
            [body.data.floorAtWindowStart, body.data.floorChange, body.data.bestCollectionOffer],
            label,
          ).toEqual([
            floorAtStart,
            c.floor.now === null || floorAtStart === null
              ? null
              : Number(BigInt(c.floor.now) - BigInt(floorAtStart)) / Number(floorAtStart),
            bestOffer(c),
          ]);
          expect(body.data.listedShare, label).toBeCloseTo(
            c.supply === 0 ? Number.NaN : c.activeListings / c.supply,
            9,
          );
          if (c.supply > 0) expect(body.data.top10HoldersShare, label).toBeCloseTo(top10 / c.supply, 9);
          expect(body.freshness).toEqual({
            indexedVersion: facts.chain.lastVersion,
            indexedAt: new Date(Number(nowUs / 1000n)).toISOString(),
          });
        }
      }
    }
  });

  it('collection-stats finds the collection by collectionId and by lootboxId too', async () => {
    for (const c of facts.collections) {
      const byId = await get(`/local/api/collection-stats?collectionId=${c.collectionId}&window=all`);
      expect(byId.data.sales, c.name).toBe(salesIn(c, null, false).length);
      if (c.lootboxId !== null) {
        const byLootbox = await get(`/local/collection-stats?lootboxId=${c.lootboxId}&window=all`);
        expect(byLootbox.data.collectionId, c.name).toBe(c.collectionId);
      }
    }
  });

  it('collection-history: gap-free OHLC, volume and sales per bucket for 1h and 1d, both path forms', async () => {
    const cases = [
      { interval: '1h', ms: 3_600_000, from: new Date(chainNow.getTime() - 3 * 86_400_000) },
      {
        interval: '1d',
        ms: 86_400_000,
        from: new Date(Number(BigInt(facts.chain.startTimestampUs) / 1000n)),
      },
    ] as const;
    for (const c of facts.collections) {
      const all = salesIn(c, null, false).sort((a, b) => a.version - b.version);
      for (const [i, { interval, ms, from }] of cases.entries()) {
        const body = await get(
          `${FORMS[i]}/collection-history?collectionId=${c.collectionId}&interval=${interval}&from=${from.toISOString()}&to=${chainNow.toISOString()}`,
        );
        const first = Math.floor(from.getTime() / ms) * ms;
        const last = Math.floor(chainNow.getTime() / ms) * ms;
        const buckets = body.data.buckets as Record<string, unknown>[];
        expect(buckets.length, `${c.name} ${interval}`).toBe((last - first) / ms + 1);
        let close: string | null = null;
        for (const s of all) if (Number(BigInt(s.timestampUs) / 1000n) < first) close = s.price;
        buckets.forEach((b, k) => {
          const start = first + k * ms;
          const inside = all.filter((s) => {
            const t = Number(BigInt(s.timestampUs) / 1000n);
            return t >= start && t < start + ms;
          });
          const prices = inside.map((s) => BigInt(s.price));
          const sorted = [...prices].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          const carried = close;
          if (inside.length > 0) close = inside.at(-1)?.price ?? null;
          expect(b, `${c.name} ${interval} bucket ${k}`).toEqual({
            start: new Date(start).toISOString(),
            open: inside[0]?.price ?? carried,
            high: prices.length ? String(sorted.at(-1)) : carried,
            low: prices.length ? String(sorted[0]) : carried,
            close,
            volume: String(sum(inside)),
            sales: inside.length,
            // Only the chain-end snapshot exists: it sets the last bucket's floor.
            floor: k === buckets.length - 1 ? c.floor.now : null,
          });
        });
      }
    }
  });

  it('collection-trait-floors: count, share, live floor and last sale of every trait value', async () => {
    for (const c of facts.collections.filter((x) => x.lootboxId === null)) {
      const tokens = facts.tokens[c.collectionId] ?? [];
      const expected = new Map<string, { count: number; floor: bigint | null; ids: Set<string> }>();
      for (const t of tokens) {
        for (const [traitType, value] of Object.entries(t.traits)) {
          const k = `${traitType}=${value}`;
          const e = expected.get(k) ?? { count: 0, floor: null, ids: new Set<string>() };
          e.count++;
          e.ids.add(t.tokenId);
          if (t.listPrice !== null && (e.floor === null || BigInt(t.listPrice) < e.floor))
            e.floor = BigInt(t.listPrice);
          expected.set(k, e);
        }
      }
      for (const [i, form] of FORMS.entries()) {
        const body = await get(
          `${form}/collection-trait-floors?creator=${c.creator}&collection=${q(c.name)}`,
        );
        const got = body.data.traits as {
          traitType: string;
          value: string;
          count: number;
          share: number;
          floor: string | null;
          lastSalePrice: string | null;
        }[];
        expect(new Set(got.map((t) => `${t.traitType}=${t.value}`)), `${c.name} ${i}`).toEqual(
          new Set(expected.keys()),
        );
        const clean = salesIn(c, null, false).sort((a, b) => a.version - b.version);
        for (const t of got) {
          const e = expected.get(`${t.traitType}=${t.value}`);
          const last = clean.filter((s) => e?.ids.has(s.tokenId)).at(-1);
          expect([t.traitType, t.value, t.count, t.floor, t.lastSalePrice]).toEqual([
            t.traitType,
            t.value,
            e?.count,
            e?.floor === null || e?.floor === undefined ? null : String(e.floor),
            last?.price ?? null,
          ]);
          expect(t.share).toBeCloseTo((e?.count ?? 0) / c.supply, 9);
        }
      }
    }
  });

  it('collection-top-traders: buyers and sellers by volume for every window, both path forms', async () => {
    const rank = (sales: SaleFact[], side: 'buyer' | 'seller') => {
      const by = new Map<string, { volume: bigint; trades: number }>();
      for (const s of sales) {
        const e = by.get(s[side]) ?? { volume: 0n, trades: 0 };
        e.volume += BigInt(s.price);
        e.trades++;
        by.set(s[side], e);
      }
      return [...by]
        .sort(([a, x], [b, y]) => (x.volume === y.volume ? (a < b ? -1 : 1) : x.volume > y.volume ? -1 : 1))
        .slice(0, 5)
        .map(([address, e]) => ({ address, volume: String(e.volume), trades: e.trades }));
    };
    for (const c of facts.collections) {
      for (const window of WINDOWS) {
        for (const [i, form] of FORMS.entries()) {
          const sales = salesIn(c, startOf(window), false);
          const body = await get(
            `${form}/collection-top-traders?collectionId=${c.collectionId}&window=${window}&limit=5`,
          );
          expect(body.data, `${c.name} ${window} ${i}`).toEqual({
            collectionId: c.collectionId,
            window,
            buyers: rank(sales, 'buyer'),
            sellers: rank(sales, 'seller'),
          });
        }
      }
    }
  });

  it('bad input is a 400 naming the problem, an unknown collection a 404', async () => {
    const c = facts.collections[0] as CollectionFacts;
    const id = c.collectionId;
    const bad: [string, RegExp][] = [
      [`/local/api/collection-stats?collectionId=${id}&window=2h`, /window/],
      [`/local/api/collection-stats?collectionId=nope`, /collectionId/],
      ['/local/api/collection-stats?window=24h', /creator|lootboxId/],
      [`/local/collection-stats?collectionId=${id}&includeFlagged=maybe`, /includeFlagged/],
      [`/local/api/collection-history?collectionId=${id}&interval=5m`, /interval/],
      [`/local/api/collection-history?collectionId=${id}&from=yesterday`, /from/],
      [
        `/local/api/collection-history?collectionId=${id}&from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`,
        /from/,
      ],
      [`/local/api/collection-history?collectionId=${id}&interval=1h&from=2020-01-01T00:00:00Z`, /buckets/],
      [`/local/collection-top-traders?collectionId=${id}&limit=0`, /limit/],
      [`/local/collection-top-traders?collectionId=${id}&window=1y`, /window/],
      ['/local/collection-trait-floors', /creator|lootboxId/],
    ];
    for (const [path, message] of bad) {
      const res = await request(path);
      expect(res.status, path).toBe(400);
      expect(res.body.message, path).toMatch(message);
    }
    const unknown = `0x${'ab'.repeat(32)}`;
    for (const route of [
      'collection-stats',
      'collection-history',
      'collection-trait-floors',
      'collection-top-traders',
    ]) {
      const res = await request(`/local/api/${route}?collectionId=${unknown}`);
      expect(res.status, route).toBe(404);
    }
    expect((await request(`/local/api/collection-stats?lootboxId=999999`)).status).toBe(404);
  });

  it('the OpenAPI document has each analytics route with an example answer its schema accepts', async () => {
    const doc = (await app.inject('/openapi.json')).json() as {
      paths: Record<
        string,
        { get?: { responses: Record<string, { content: Record<string, { example?: unknown }> }> } }
      >;
    };
    const schemas = {
      stats: CollectionStats,
      history: CollectionHistory,
      'trait-floors': TraitFloors,
      'top-traders': TopTraders,
    };
    for (const [route, schema] of Object.entries(schemas)) {
      const example =
        doc.paths[`/local/api/collection-${route}`]?.get?.responses['200']?.content['application/json']
          ?.example;
      expect(example, route).toBeDefined();
      // The document's schema is OpenAPI 3.0 (nullable: true); the route's own schema judges the example.
      expect(Value.Check(Fresh(schema, null), example), route).toBe(true);
    }
  });

  it('sales in activity lists carry the wash flags of their labels', async () => {
    const labelled = facts.sales.filter((s) => s.wash !== null);
    for (const s of labelled.slice(0, 10)) {
      const body = await get(`/local/api/market/token-history-by-tokenId?tokenId=${s.tokenId}&limit=100`);
      const entry = (body.data as { version: number; kind: string; flags: string[] }[]).find(
        (e) => e.version === s.version && e.kind.startsWith('fill_'),
      );
      expect(entry?.flags, `${s.version}`).toContain(s.wash);
    }
  });
});
