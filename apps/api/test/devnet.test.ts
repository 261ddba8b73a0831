import { createApiKey } from '@mdq/db';
import type { DevnetFacts } from '@mdq/devnet';
import { createIndexedDatabase, type IndexedDatabase } from '@mdq/indexer/testing';
import { recomputeAll } from '@mdq/worker';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

/*
 * The API against a devnet chain ingested by the real indexer, checked against the devnet
 * generator's own facts (never against the API's queries). The app's clock is pinned to the chain's
 * end, so that lootbox statuses and revenue windows use the generator's "now".
 */
describe('API over an indexed devnet chain', () => {
  let indexed: IndexedDatabase;
  let app: FastifyInstance;
  let key: string;
  let facts: DevnetFacts;

  const get = async (path: string) => {
    const res = await app.inject({ url: `/local/api${path}`, headers: { 'x-api-key': key } });
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    return res.json();
  };
  const q = encodeURIComponent;
  const creatorOf = (collectionId: string) => {
    const found = facts.collections.find((c) => c.collectionId === collectionId);
    if (!found) throw new Error(`no collection ${collectionId} in facts`);
    return found;
  };
  /** Every row of a list route, following nextCursor; asserts pages neither overlap nor drop rows. */
  const all = async (path: string, limit: number) => {
    const rows: unknown[] = [];
    let body = await get(`${path}&limit=${limit}`);
    const total: number = body.pagination.total;
    rows.push(...body.data);
    for (let page = 2; body.pagination.hasMore; page++) {
      const byPage = await get(`${path}&limit=${limit}&page=${page}`);
      body = await get(`${path}&limit=${limit}&cursor=${body.pagination.nextCursor}`);
      expect(byPage.data, `${path} page ${page}`).toEqual(body.data);
      rows.push(...body.data);
    }
    expect(rows.length, path).toBe(total);
    return rows;
  };

  beforeAll(async () => {
    indexed = await createIndexedDatabase({ seed: 11, preset: 'tiny', endTimeMs: Date.now() });
    facts = indexed.facts;
    // The service's "now" is the chain's end, as the generator's windows and statuses are.
    const chainNow = new Date(Number(BigInt(facts.chain.nowUs) / 1000n));
    app = await buildApp({ db: indexed.db, network: 'local', clock: () => chainNow });
    key = (await createApiKey(indexed.db, { name: 'devnet' })).key;
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    await indexed?.close();
  });

  it("tokens-by-collection lists each collection's live tokens, paging without gaps", async () => {
    for (const c of facts.collections) {
      const path = `/tokens-by-collection?creator=${c.creator}&collection=${q(c.name)}`;
      const first = await get(path);
      expect(first.pagination, c.name).toMatchObject({ page: 1, limit: 50, total: c.supply });
      const tokens = (await all(path, 7)) as { tokenId: string }[];
      const expected = facts.tokens[c.collectionId];
      if (expected)
        expect(new Set(tokens.map((t) => t.tokenId)), c.name).toEqual(
          new Set(expected.map((t) => t.tokenId)),
        );
    }
  });

  it('token-balances gives each wallet the tokens the generator says it holds (listed included)', async () => {
    for (const user of facts.users) {
      const body = await get(`/token-balances?address=${user.address}&greaterThanZeroBalance=true`);
      expect(body.pagination.total, user.address).toBe(user.tokensHeld);
      const ids = (await all(`/token-balances?address=${user.address}&greaterThanZeroBalance=true`, 100)) as {
        tokenId: string;
      }[];
      expect(new Set(ids.map((t) => t.tokenId)), user.address).toEqual(new Set(user.tokens));
      const inventory = await get(`/user/inventory-history-data?address=${user.address}`);
      expect(inventory.data.points.at(-1), user.address).toMatchObject({
        tokenCount: user.tokensHeld,
        live: true,
      });
    }
  });

  it("token-balances marks exactly the seller's listed tokens listed, none missing", async () => {
    const tokens = Object.values(facts.tokens).flat();
    const sellers = new Set(tokens.filter((t) => t.listed).map((t) => t.owner));
    expect(sellers.size, 'the chain has listed tokens').toBeGreaterThan(0);
    for (const seller of sellers) {
      const expected = tokens
        .filter((t) => t.owner === seller)
        .map((t) => ({ tokenId: t.tokenId, listed: t.listed }))
        .sort((a, b) => a.tokenId.localeCompare(b.tokenId));
      const held = (await all(`/token-balances?address=${seller}&greaterThanZeroBalance=true`, 100)) as {
        tokenId: string;
        listed: boolean;
      }[];
      const got = held
        .map((r) => ({ tokenId: r.tokenId, listed: r.listed }))
        .sort((a, b) => a.tokenId.localeCompare(b.tokenId));
      expect(got, seller).toEqual(expected);
      // With zero balances too (the default): each token once; the extra rows are tokens it held once.
      const everything = (await all(`/token-balances?address=${seller}`, 100)) as {
        tokenId: string;
        listed: boolean;
        amount: string;
      }[];
      const ids = everything.map((r) => r.tokenId);
      expect(new Set(ids).size, `${seller}: no token twice`).toBe(ids.length);
      const owned = new Set(expected.map((t) => t.tokenId));
      expect(
        everything.filter((r) => owned.has(r.tokenId)).map((r) => ({ tokenId: r.tokenId, listed: r.listed })),
        seller,
      ).toEqual(expect.arrayContaining(expected));
      for (const r of everything.filter((x) => !owned.has(x.tokenId)))
        expect({ amount: r.amount, listed: r.listed }, r.tokenId).toEqual({ amount: '0', listed: false });
    }
  });

  it('a v2 token has propertyVersion "0" on every route that names it', async () => {
    const v2 = facts.collections.filter((c) => c.standard === 'v2');
    const listedV2 = Object.values(facts.tokens)
      .flat()
      .find((t) => t.listed && v2.some((c) => facts.tokens[c.collectionId]?.includes(t)));
    if (!listedV2) throw new Error('the chain has no listed v2 token');
    const c = v2.find((x) => facts.tokens[x.collectionId]?.includes(listedV2));
    if (!c) throw new Error('unreachable');
    const versions = new Set<unknown>();
    const balances = await get(`/token-balances?address=${listedV2.owner}&limit=100`);
    for (const b of balances.data.filter((r: { tokenId: string }) => r.tokenId === listedV2.tokenId))
      versions.add(b.propertyVersion);
    const byCollection = await get(
      `/market/listings-by-collection?creator=${c.creator}&collection=${q(c.name)}&limit=100`,
    );
    for (const l of byCollection.data) versions.add(l.propertyVersion);
    const cards = await get(
      `/market/listing-cards?collectionName=${q(c.name)}&creatorAddress=${c.creator}&limit=100`,
    );
    for (const l of cards.data) versions.add(l.propertyVersion);
    const card = await get(`/market/listing-card?tokenId=${listedV2.tokenId}&tokenStandard=v2`);
    versions.add(card.data.listing.propertyVersion);
    const activity = await get(
      `/token/activity?creator=${c.creator}&collection=${q(c.name)}&tokenName=${q(listedV2.name)}&limit=100`,
    );
    for (const a of activity.data) versions.add(a.propertyVersion);
    expect([...versions]).toEqual(['0']);
  });

  it('listings, floors and bids per collection match the facts', async () => {
    for (const c of facts.collections) {
      const listings = await get(
        `/market/listings-by-collection?creator=${c.creator}&collection=${q(c.name)}&limit=100`,
      );
      expect(listings.pagination.total, c.name).toBe(c.activeListings);
      expect(listings.data[0]?.price ?? null, c.name).toBe(c.floor.now);
      const bids = await get(`/market/bids-by-collection?creator=${c.creator}&collection=${q(c.name)}`);
      expect(bids.pagination.total, c.name).toBe(c.tokenOffers.active + c.collectionOffers.active);
      const cards = await get(
        `/market/total-listing-cards?collectionName=${q(c.name)}&creatorAddress=${c.creator}`,
      );
      expect(cards.data.total, c.name).toBe(c.activeListings);
    }
    const total = facts.collections.reduce((sum, c) => sum + c.activeListings, 0);
    expect((await get('/market/total-listing-cards')).data.total).toBe(total);
    const cards = (await all('/market/listing-cards?byPopular=false', 20)) as { listingId: string }[];
    expect(new Set(cards.map((l) => `${l.listingId}`)).size).toBe(total);
  });

  it("user-listings count each seller's listed tokens", async () => {
    for (const user of facts.users) {
      const listed = Object.values(facts.tokens)
        .flat()
        .filter((t) => t.owner === user.address && t.listed).length;
      const body = await get(`/market/user-listings?address=${user.address}`);
      expect(body.pagination.total, user.address).toBe(listed);
    }
  });

  it('lootboxes: status, counts, tiers, revenue per window, tokens and collection facts', async () => {
    for (const lb of facts.lootboxes) {
      const { creator, name } = creatorOf(lb.collectionId);
      const detail = (await get(`/lootbox?creator=${creator}&collection=${q(name)}`)).data;
      expect(detail, lb.name).toMatchObject({
        lootboxId: lb.lootboxId,
        status: lb.status,
        paused: lb.paused,
        price: lb.price,
        maxSupply: String(lb.maxSupply),
        purchased: String(lb.purchased),
        minted: String(lb.minted),
      });
      const rarities = (await get(`/rarities-by-lootbox?lootboxId=${lb.lootboxId}`)).data;
      expect(
        rarities.tiers.map((t: { name: string; weight: string; maxSupply: string; minted: string }) => ({
          name: t.name,
          weight: Number(t.weight),
          maxSupply: Number(t.maxSupply),
          minted: Number(t.minted),
        })),
        lb.name,
      ).toEqual(lb.tiers);
      for (const timeframe of ['24h', '7d', '30d', 'all'] as const) {
        const revenue = (
          await get(`/lootbox-revenue?creator=${creator}&collection=${q(name)}&timeframe=${timeframe}`)
        ).data;
        const sum = revenue.revenue.reduce(
          (acc: bigint, r: { amount: string }) => acc + BigInt(r.amount),
          0n,
        );
        expect(String(sum), `${lb.name} ${timeframe}`).toBe(lb.revenue[timeframe]);
      }
      const collection = creatorOf(lb.collectionId);
      // Revealed tokens still alive: a burned one is no longer listed.
      const live = lb.minted - collection.burned;
      expect((await get(`/tokens-by-lootbox?lootboxId=${lb.lootboxId}`)).pagination.total, lb.name).toBe(
        live,
      );
      const info = (
        await get(`/token-collection-by-lootbox-creator?creator=${creator}&collection=${q(name)}`)
      ).data;
      expect(info, lb.name).toMatchObject({
        collectionId: lb.collectionId,
        currentSupply: String(collection.supply),
        totalMinted: String(collection.minted),
        owners: collection.holders,
        floorPrice: collection.floor.now,
        volume: collection.volume.all,
        sales: collection.sales.all,
      });
    }
  });

  it('rankings of lootboxes: recent-added newest first, by-upcoming only upcoming ones', async () => {
    const recent = await get('/rankings/recent-added?limit=100');
    const byCreation = [...facts.lootboxes]
      .sort((a, b) => b.createdVersion - a.createdVersion)
      .map((l) => l.lootboxId);
    expect(recent.data.map((l: { lootboxId: number }) => l.lootboxId)).toEqual(byCreation);
    const upcoming = await get('/rankings/by-upcoming?limit=100');
    expect(upcoming.data.map((l: { lootboxId: number }) => l.lootboxId).sort()).toEqual(
      facts.lootboxes
        .filter((l) => l.status === 'upcoming')
        .map((l) => l.lootboxId)
        .sort(),
    );
  });

  it("token traits count each value among the collection's tokens", async () => {
    const [collectionId, tokens] =
      Object.entries(facts.tokens).find(([, list]) => list.some((t) => Object.keys(t.traits).length > 1)) ??
      [];
    if (!collectionId || !tokens) throw new Error('facts carry no tokens with traits');
    const c = creatorOf(collectionId);
    const token = tokens.find((t) => Object.keys(t.traits).length > 1);
    if (!token) throw new Error('unreachable');
    const body = (
      await get(
        `/token/traits?creator=${c.creator}&collection=${q(c.name)}&tokenName=${q(token.name)}&tokenStandard=${c.standard}`,
      )
    ).data;
    expect(body.tokenId).toBe(token.tokenId);
    const traits = Object.fromEntries(
      body.traits.map((t: { traitType: string; value: string }) => [t.traitType, t.value]),
    );
    expect(traits).toEqual(token.traits);
    for (const trait of body.traits as { traitType: string; value: string; count: number }[]) {
      expect(trait.count, trait.traitType).toBe(
        tokens.filter((t) => t.traits[trait.traitType] === trait.value).length,
      );
    }
    const activity = await get(
      `/token/activity?creator=${c.creator}&collection=${q(c.name)}&tokenName=${q(token.name)}&limit=100`,
    );
    const kinds = activity.data.map((a: { kind: string }) => a.kind);
    expect(kinds.at(-1) === 'mint' || kinds.includes('mint'), kinds.join()).toBe(true);
    const versions = activity.data.map((a: { version: number }) => a.version);
    expect(versions).toEqual([...versions].sort((a, b) => b - a));
  });

  it('search finds a collection despite a typo', async () => {
    const target = facts.collections[0];
    if (!target) throw new Error('no collections');
    const typo = `${target.name.slice(0, -1)}z`;
    const body = await get(`/market/search?text=${q(typo)}`);
    expect(body.data.collections[0]?.collectionId).toBe(target.collectionId);
    const token = (facts.tokens[target.collectionId] ?? [])[0];
    if (token) {
      const hits = await get(`/market/search?text=${q(token.name)}`);
      expect(hits.data.tokens[0]).toMatchObject({
        tokenId: token.tokenId,
        collection: target.name,
        creator: target.creator,
      });
    }
  });

  it('serves both path forms with the same body', async () => {
    const c = facts.collections[0];
    if (!c) throw new Error('no collections');
    const path = `tokens-by-collection?creator=${c.creator}&collection=${q(c.name)}`;
    const a = await app.inject({ url: `/local/api/${path}`, headers: { 'x-api-key': key } });
    const b = await app.inject({ url: `/local/${path}`, headers: { 'x-api-key': key } });
    expect(a.statusCode).toBe(200);
    expect(b.body).toBe(a.body);
  });

  it('answers each error case of the spec with the envelope', async () => {
    const call = (url: string, headers: Record<string, string> = { 'x-api-key': key }) =>
      app.inject({ url: `/local/api${url}`, headers });
    const missing = await call('/tokens-by-collection?collection=x');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      code: 'INVALID_PARAMETER',
    });
    expect(missing.json().message).toContain("'creator'");
    expect((await call('/rankings/recent-added', {})).statusCode).toBe(401);
    expect((await call('/rankings/recent-added', { 'x-api-key': 'wrong' })).json().code).toBe(
      'INVALID_API_KEY',
    );
    const neither = await call('/market/bids-by-collection?collection=x');
    expect(neither.statusCode).toBe(400);
    expect(neither.json().code).toBe('MISSING_PARAMETER');
    const limit = await call('/rankings/trending-collections?limit=20');
    expect(limit.statusCode).toBe(400);
    expect(limit.json().message).toContain("'limit'");
  });
  // Last: the worker's aggregates change what the routes read (snapshots replace the live fallback).
  describe('after the worker has run', () => {
    beforeAll(async () => {
      await recomputeAll(indexed.db, new Date(Number(BigInt(facts.chain.nowUs) / 1000n)));
    }, 120_000);

    it('trending-collections ranks exactly the collections that sold in the last 7 days', async () => {
      const body = await get('/rankings/trending-collections?limit=100');
      const sold = facts.collections.filter((c) => c.sales['7d'] > 0).map((c) => c.collectionId);
      expect(new Set(body.data.map((r: { collectionId: string }) => r.collectionId))).toEqual(new Set(sold));
      expect(body.data.map((r: { rank: number }) => r.rank)).toEqual(sold.map((_, i) => i + 1));
      const scores = body.data.map((r: { score: number }) => r.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(body.pagination.total).toBe(sold.length);
    });

    it('rarities-by-collection ranks every live token of a collection with traits', async () => {
      const c = facts.collections.find((x) =>
        (facts.tokens[x.collectionId] ?? []).some((t) => Object.keys(t.traits).length > 0),
      );
      if (!c) throw new Error('no collection with traits');
      const rows = (await all(
        `/rarities-by-collection?creator=${c.creator}&collection=${q(c.name)}`,
        30,
      )) as { tokenId: string; rank: number }[];
      expect(new Set(rows.map((r) => r.tokenId))).toEqual(
        new Set((facts.tokens[c.collectionId] ?? []).map((t) => t.tokenId)),
      );
      expect(rows[0]?.rank).toBe(1);
    });

    it('inventory-history-data reads the snapshot the worker took', async () => {
      for (const user of facts.users.slice(0, 5)) {
        const body = await get(`/user/inventory-history-data?address=${user.address}&range=24h`);
        const last = body.data.points.at(-1);
        expect(last, user.address).toMatchObject({ tokenCount: user.tokensHeld, live: false });
      }
    });
  });
});
