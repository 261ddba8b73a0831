import { createApiKey } from '@mdq/db';
import type { DevnetFacts, SaleFact, TokenFacts } from '@mdq/devnet';
import { createIndexedDatabase, type IndexedDatabase } from '@mdq/indexer/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

/*
 * History that starts mid-chain (MDQ_START_VERSION): the indexer never reads the versions before
 * START, so tokens and collections created there are known only from the events after it. Every
 * answer is checked against the devnet generator's facts restricted to what happened from START
 * on; what legitimately differs from a full index (README "Starting mid-chain") is asserted too.
 */
const START = 300;

describe('API over a devnet chain indexed from a middle version', () => {
  let indexed: IndexedDatabase;
  let app: FastifyInstance;
  let key: string;
  let facts: DevnetFacts;
  let tokens: (TokenFacts & {
    collectionId: string;
    creator: string;
    collection: string;
    standard: string;
  })[];

  const request = (path: string) => app.inject({ url: `/local/api${path}`, headers: { 'x-api-key': key } });
  const get = async (path: string) => {
    const res = await request(path);
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    return res.json();
  };
  const q = encodeURIComponent;
  const tokenOf = (id: string) => {
    const found = tokens.find((t) => t.tokenId === id);
    if (!found) throw new Error(`no token ${id} in facts`);
    return found;
  };
  /** Sales from START on of tokens minted before it: the card, the history and the name lookup must know them. */
  const lateSalesOfEarlyTokens = (): SaleFact[] =>
    facts.sales.filter(
      (s) => s.version >= START && tokens.some((t) => t.tokenId === s.tokenId && t.mintedVersion < START),
    );

  beforeAll(async () => {
    indexed = await createIndexedDatabase({ seed: 21, preset: 'tiny', startVersion: START, batchSize: 97 });
    facts = indexed.facts;
    tokens = Object.entries(facts.tokens).flatMap(([collectionId, list]) => {
      const c = facts.collections.find((x) => x.collectionId === collectionId);
      if (!c) throw new Error(`no collection ${collectionId}`);
      return list.map((t) => ({
        ...t,
        collectionId,
        creator: c.creator,
        collection: c.name,
        standard: c.standard,
      }));
    });
    const chainNow = new Date(Number(BigInt(facts.chain.nowUs) / 1000n));
    app = await buildApp({ db: indexed.db, network: 'local', clock: () => chainNow });
    key = (await createApiKey(indexed.db, { name: 'mid-chain' })).key;
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    await indexed?.close();
  });

  it('starts in the middle: collections and tokens exist that were created before the start', () => {
    expect(indexed.stats.transactions).toBe(facts.chain.lastVersion - START + 1);
    expect(facts.collections.filter((c) => c.createdVersion < START).length).toBeGreaterThan(1);
    expect(lateSalesOfEarlyTokens().length).toBeGreaterThan(5);
  });

  it('a token sold after the start but minted before it has its card, its history and its name lookup', async () => {
    for (const sale of lateSalesOfEarlyTokens()) {
      const t = tokenOf(sale.tokenId);
      const card = await get(`/market/listing-card?tokenId=${t.tokenId}&tokenStandard=${t.standard}`);
      expect(card.data.token, t.name).toMatchObject({ tokenId: t.tokenId, tokenName: t.name });
      expect(
        card.data.priceHistory.some((s: { version: number }) => s.version === sale.version) ||
          card.data.priceHistory.length === 20,
        t.name,
      ).toBe(true);

      const history = await get(`/market/token-history-by-tokenId?tokenId=${t.tokenId}&limit=100`);
      expect(
        history.data.some(
          (e: { version: number; source: string }) => e.version === sale.version && e.source === 'market',
        ),
        t.name,
      ).toBe(true);

      const byName = await get(
        `/token/activity?tokenName=${q(t.name)}&creator=${t.creator}&collection=${q(t.collection)}&limit=100`,
      );
      expect(
        byName.data.map((e: { tokenId: string }) => e.tokenId).every((id: string) => id === t.tokenId),
      ).toBe(true);
      expect(
        byName.data.some((e: { version: number }) => e.version === sale.version),
        t.name,
      ).toBe(true);
      // What legitimately differs: the mint happened before the start and is not in the timeline.
      expect(
        byName.data.some((e: { kind: string; version: number }) => e.version < START),
        t.name,
      ).toBe(false);
    }
  });

  it('listing cards: every listing placed after the start is active at its price; earlier ones are unknown', async () => {
    const listed = tokens.filter((t) => t.listed);
    const late = listed.filter((t) => (t.listedVersion ?? -1) >= START);
    expect(late.filter((t) => t.mintedVersion < START).length).toBeGreaterThan(0);
    for (const t of late) {
      const card = await get(`/market/listing-card?tokenId=${t.tokenId}&tokenStandard=${t.standard}`);
      expect(card.data.status, t.name).toBe('active');
      expect(card.data.listing.price, t.name).toBe(t.listPrice);
      expect(card.data.listing.collection, t.name).toBe(t.collection);
      expect(card.data.listing.creator, t.name).toBe(t.creator);
    }
    // Placed before the start and untouched since: the indexed events never mention them.
    for (const t of listed.filter((x) => (x.listedVersion ?? -1) < START)) {
      const res = await request(`/market/listing-card?tokenId=${t.tokenId}&tokenStandard=${t.standard}`);
      if (res.statusCode === 200) expect(res.json().data.status, t.name).not.toBe('active');
      else expect(res.statusCode, t.name).toBe(404);
    }
    const total = (await get('/market/total-listing-cards')).data.total;
    expect(total).toBe(late.length);
  });

  it('collections created before the start answer by (creator, name) with the listings placed since', async () => {
    // Named after the start by a marketplace event (the ones the facts record: a sale, a listing
    // still active, an open offer).
    const named = new Set([
      ...facts.sales.filter((s) => s.version >= START).map((s) => s.collectionId),
      ...tokens.filter((t) => (t.listedVersion ?? -1) >= START).map((t) => t.collectionId),
      ...facts.openOffers.filter((o) => o.placedVersion >= START).map((o) => o.collectionId),
    ]);
    const early = facts.collections.filter((c) => c.createdVersion < START && named.has(c.collectionId));
    expect(early.length).toBeGreaterThan(1);
    // What legitimately differs: a v2 collection object carries its name only when created or
    // mutated; one that no event after the start names is known by id alone. A v1 collection is
    // named by every TokenId after the start.
    for (const c of facts.collections.filter((x) => x.createdVersion < START && !named.has(x.collectionId))) {
      const res = await request(
        `/market/listings-by-collection?creator=${c.creator}&collection=${q(c.name)}`,
      );
      if (res.statusCode !== 200) expect([res.statusCode, c.standard], c.name).toEqual([404, 'v2']);
    }
    for (const c of early) {
      const late = tokens.filter(
        (t) => t.collectionId === c.collectionId && (t.listedVersion ?? -1) >= START,
      );
      const listings = await get(
        `/market/listings-by-collection?creator=${c.creator}&collection=${q(c.name)}&limit=100`,
      );
      expect(listings.pagination.total, c.name).toBe(late.length);
      const floor = late.reduce<bigint | null>((m, t) => {
        const p = BigInt(t.listPrice as string);
        return m === null || p < m ? p : m;
      }, null);
      expect(listings.data[0]?.price ?? null, c.name).toBe(floor === null ? null : String(floor));
      // What legitimately differs: tokens that no event after the start mentions are unknown, so
      // the collection lists at most its real supply.
      const listed = await get(`/tokens-by-collection?creator=${c.creator}&collection=${q(c.name)}`);
      expect(listed.pagination.total, c.name).toBeLessThanOrEqual(c.supply);
    }
    expect(
      (
        await Promise.all(
          early.map(async (c) => {
            const body = await get(`/tokens-by-collection?creator=${c.creator}&collection=${q(c.name)}`);
            return body.pagination.total < c.supply;
          }),
        )
      ).some(Boolean),
    ).toBe(true);
  });

  it('user listings, bids and purchase history hold what happened from the start on', async () => {
    const nowSecs = Number(BigInt(facts.chain.nowUs) / 1_000_000n);
    for (const user of facts.users) {
      const listed = tokens.filter(
        (t) => t.owner === user.address && t.listed && (t.listedVersion ?? -1) >= START,
      );
      const listings = await get(`/market/user-listings?address=${user.address}&limit=100`);
      expect(listings.pagination.total, user.address).toBe(listed.length);

      const bids = facts.openOffers.filter(
        (o) => o.buyer === user.address && o.placedVersion >= START && o.expiresSecs > nowSecs,
      );
      const userBids = await get(`/market/user-bids?address=${user.address}&limit=100`);
      expect(userBids.pagination.total, user.address).toBe(bids.length);

      const bought = facts.sales.filter((s) => s.buyer === user.address && s.version >= START);
      const history = await get(`/market/user-history?address=${user.address}&limit=100`);
      expect(history.pagination.total, user.address).toBe(bought.length);
      expect(new Set(history.data.map((e: { version: number }) => e.version))).toEqual(
        new Set(bought.slice(-100).map((s) => s.version)),
      );
    }
  });
});
