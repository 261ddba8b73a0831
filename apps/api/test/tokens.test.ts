import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, addr, createHarness } from './support/fixtures';

const CREATOR = addr(0xc1);
const OWNER = addr(0xa1);
const COLLECTION = addr(0x100);
const tokenId = (n: number) => addr(0x1000 + n);

describe('token routes', () => {
  let h: ApiHarness;

  beforeAll(async () => {
    h = await createHarness();
    const { fx } = h;
    await fx.collection({ id: COLLECTION, creator: CREATOR, name: 'Cats', lootboxId: 7, owners: 2 });
    await fx.lootbox({
      id: 7,
      creator: CREATOR,
      name: 'Cats',
      collectionId: COLLECTION,
      mintStart: '2026-01-01T00:00:00Z',
    });
    for (let n = 1; n <= 5; n++) {
      await fx.token({
        id: tokenId(n),
        collectionId: COLLECTION,
        creator: CREATOR,
        collection: 'Cats',
        name: `Cat #${n}`,
        lootboxId: 7,
        tier: n === 1 ? 'legendary' : 'common',
        burned: n === 5,
      });
    }
    await fx.ownership({ tokenId: tokenId(1), owner: OWNER, collectionId: COLLECTION });
    await fx.ownership({ tokenId: tokenId(2), owner: OWNER, collectionId: COLLECTION });
    await fx.ownership({ tokenId: tokenId(3), owner: OWNER, collectionId: COLLECTION, amount: '0' });
    await fx.listing({
      id: 'l1',
      tokenId: tokenId(1),
      tokenName: 'Cat #1',
      collectionId: COLLECTION,
      collection: 'Cats',
      creator: CREATOR,
      seller: OWNER,
      price: '500',
      version: 30,
    });
    await fx.tokenActivity({
      version: 10,
      kind: 'mint',
      tokenId: tokenId(1),
      collectionId: COLLECTION,
      to: CREATOR,
    });
    await fx.tokenActivity({
      version: 20,
      kind: 'transfer',
      tokenId: tokenId(1),
      collectionId: COLLECTION,
      from: CREATOR,
      to: OWNER,
    });
    await fx.marketActivity({
      version: 30,
      kind: 'place_listing',
      tokenId: tokenId(1),
      collectionId: COLLECTION,
      collection: 'Cats',
      creator: CREATOR,
      price: '500',
      seller: OWNER,
      listingId: 'l1',
    });
    await fx.attribute(tokenId(1), COLLECTION, 'Background', 'Blue');
    await fx.attribute(tokenId(1), COLLECTION, 'Eyes', 'Green');
    await fx.attribute(tokenId(2), COLLECTION, 'Background', 'Blue');
    await fx.attribute(tokenId(3), COLLECTION, 'Background', 'Red');
    await h.test.db
      .insertInto('token_rarity')
      .values({
        token_data_id: tokenId(1),
        collection_id: COLLECTION,
        score: 2.5,
        rank: 1,
        trait_count: 2,
        computed_at: new Date(),
      })
      .execute();
  });
  afterAll(() => h.close());

  it('token-balances requires address and normalizes short forms', async () => {
    const missing = await h.get('/token-balances');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain("'address'");
    const bad = await h.get('/token-balances?address=0xZZ');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('address');

    const res = await h.get('/token-balances?address=0xA1');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.pagination).toEqual({ page: 1, limit: 100, total: 3, hasMore: false, nextCursor: null });
    expect(body.data.map((b: { tokenId: string }) => b.tokenId)).toEqual([
      tokenId(1),
      tokenId(2),
      tokenId(3),
    ]);
    expect(body.data[0]).toMatchObject({
      owner: OWNER,
      amount: '1',
      tokenName: 'Cat #1',
      collection: 'Cats',
    });
    expect(body.data[0].serviceInfo).toBeUndefined();
  });

  it('token-balances filters and adds service info', async () => {
    const res = await h.get(
      `/token-balances?address=${OWNER}&greaterThanZeroBalance=true&serviceInfo=true&collection=Cats&creator=${CREATOR}`,
    );
    const body = res.json();
    expect(body.pagination.total).toBe(2);
    expect(body.data[0].serviceInfo).toEqual({
      lootboxId: 7,
      rarityTier: 'legendary',
      rarityRank: 1,
      listing: {
        listingId: 'l1',
        marketplace: 'mdq',
        price: '500',
        coinType: '0x1::aptos_coin::AptosCoin',
        quantity: '1',
        listedAt: expect.any(String),
      },
    });
    expect(body.data[1].serviceInfo.listing).toBeNull();
    const none = await h.get(`/token-balances?address=${OWNER}&collection=Dogs`);
    expect(none.json().pagination.total).toBe(0);
  });

  it('pages with page numbers and with cursors alike', async () => {
    const first = (await h.get(`/tokens-by-collection?creator=${CREATOR}&collection=Cats&limit=2`)).json();
    expect(first.pagination).toMatchObject({ page: 1, limit: 2, total: 4, hasMore: true });
    const second = (
      await h.get(`/tokens-by-collection?creator=${CREATOR}&collection=Cats&limit=2&page=2`)
    ).json();
    const viaCursor = (
      await h.get(
        `/tokens-by-collection?creator=${CREATOR}&collection=Cats&limit=2&cursor=${first.pagination.nextCursor}`,
      )
    ).json();
    expect(second.data.map((t: { tokenName: string }) => t.tokenName)).toEqual(['Cat #3', 'Cat #4']);
    expect(viaCursor.data).toEqual(second.data);
    expect(second.pagination.hasMore).toBe(false);
    const bad = await h.get(`/tokens-by-collection?creator=${CREATOR}&collection=Cats&cursor=nope`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("'cursor'");
  });

  it('lists a collection in natural name order ("#2" before "#10"), by page and by cursor alike', async () => {
    const frogs = addr(0x200);
    await h.fx.collection({ id: frogs, creator: CREATOR, name: 'Frogs', owners: 0 });
    // Inserted out of order; byte order would give #1, #10, #100, #11, #2, #9.
    const names = ['Frog #100', 'Frog #2', 'Frog #11', 'Frog #1', 'Frog #9', 'Frog #10'];
    for (const [i, name] of names.entries())
      await h.fx.token({
        id: addr(0x2000 + i),
        collectionId: frogs,
        creator: CREATOR,
        collection: 'Frogs',
        name,
      });
    const natural = ['Frog #1', 'Frog #2', 'Frog #9', 'Frog #10', 'Frog #11', 'Frog #100'];
    const path = `/tokens-by-collection?creator=${CREATOR}&collection=Frogs&limit=4`;
    const first = (await h.get(path)).json();
    const byCursor = (await h.get(`${path}&cursor=${first.pagination.nextCursor}`)).json();
    const byPage = (await h.get(`${path}&page=2`)).json();
    const nameOf = (t: { tokenName: string }) => t.tokenName;
    expect([...first.data, ...byCursor.data].map(nameOf)).toEqual(natural);
    expect(byPage.data.map(nameOf)).toEqual(natural.slice(4));
  });

  it('the collection lists 404 an unknown collection, and answer an empty page past the end of a known one', async () => {
    // The pair is resolved inside each list's statement; the name is looked up only for an empty page.
    for (const route of [
      '/tokens-by-collection',
      '/rarities-by-collection',
      '/market/listings-by-collection',
      '/market/bids-by-collection',
    ]) {
      const res = await h.get(`${route}?creator=${CREATOR}&collection=Dogs`);
      expect(res.statusCode, route).toBe(404);
      expect(res.json().code, route).toBe('COLLECTION_NOT_FOUND');
      const past = await h.get(`${route}?creator=${CREATOR}&collection=Cats&page=50`);
      expect(past.statusCode, route).toBe(200);
      expect(past.json().data, route).toEqual([]);
    }
  });

  it('tokens-by-lootbox and tokens-by-lootbox-creator list the lootbox tokens', async () => {
    const byId = (await h.get('/tokens-by-lootbox?lootboxId=7')).json();
    expect(byId.pagination.total).toBe(4);
    expect(byId.data[0]).toMatchObject({ tokenId: tokenId(1), lootboxId: 7, rarityTier: 'legendary' });
    const byCreator = (await h.get(`/tokens-by-lootbox-creator?creator=${CREATOR}&collection=Cats`)).json();
    expect(byCreator.data).toEqual(byId.data);
    expect((await h.get('/tokens-by-lootbox?lootboxId=99')).statusCode).toBe(404);
    expect((await h.get('/tokens-by-lootbox?lootboxId=abc')).statusCode).toBe(400);
  });

  it('token-collection-by-lootbox-creator gives collection facts', async () => {
    const res = await h.get(`/token-collection-by-lootbox-creator?creator=${CREATOR}&collection=Cats`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      collectionId: COLLECTION,
      owners: 2,
      floorPrice: '500',
      listedCount: 1,
      volume: '0',
      lootbox: { lootboxId: 7, status: 'active' },
    });
    expect(res.headers.etag).toMatch(/^W\//);
    const again = await h.get(`/token-collection-by-lootbox-creator?creator=${CREATOR}&collection=Cats`, {
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it("token-collection-by-lootbox-creator answers a lootbox whose collection is not the pair's, uncached", async () => {
    // A lootbox named Ghosts whose collection is the Cats: the pair names no collection, so the
    // pair's counters do not count its rows; its facts are the Cats', computed each time.
    await h.fx.lootbox({
      id: 70,
      creator: CREATOR,
      name: 'Ghosts',
      collectionId: COLLECTION,
      mintStart: '2026-01-01T00:00:00Z',
    });
    const url = `/token-collection-by-lootbox-creator?creator=${CREATOR}&collection=Ghosts`;
    for (let i = 0; i < 2; i++) {
      const res = await h.get(url);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ collectionId: COLLECTION, lootbox: { lootboxId: 70 } });
      expect(res.headers['x-mdq-cache']).toBe('miss');
    }
    const cats = `/token-collection-by-lootbox-creator?creator=${CREATOR}&collection=Cats`;
    await h.get(cats);
    expect((await h.get(cats)).headers['x-mdq-cache']).toBe('hit');
  });

  it('token/activity merges token and market events, newest first', async () => {
    const res = await h.get(
      `/local/token/activity?creator=${CREATOR}&collection=Cats&tokenName=${encodeURIComponent('Cat #1')}`,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.map((a: { kind: string }) => a.kind)).toEqual(['place_listing', 'transfer', 'mint']);
    expect(body.data[0]).toMatchObject({ source: 'market', seller: OWNER, price: '500', version: 30 });
    expect(body.data[1]).toMatchObject({ source: 'token', from: CREATOR, to: OWNER });
    expect(body.pagination).toMatchObject({ limit: 20, total: 3 });
    const page = (
      await h.get(
        `/token/activity?creator=${CREATOR}&collection=Cats&tokenName=${encodeURIComponent('Cat #1')}&limit=1`,
      )
    ).json();
    const next = (
      await h.get(
        `/token/activity?creator=${CREATOR}&collection=Cats&tokenName=${encodeURIComponent('Cat #1')}&limit=2&cursor=${page.pagination.nextCursor}`,
      )
    ).json();
    expect(next.data.map((a: { kind: string }) => a.kind)).toEqual(['transfer', 'mint']);
    expect((await h.get(`/token/activity?creator=${CREATOR}&collection=Cats`)).json().message).toContain(
      "'tokenName'",
    );
    expect(
      (await h.get(`/token/activity?creator=${CREATOR}&collection=Cats&tokenName=Nope`)).statusCode,
    ).toBe(404);
  });

  it('token/traits gives each trait count and share', async () => {
    const res = await h.get(
      `/token/traits?creator=${CREATOR}&collection=Cats&tokenName=${encodeURIComponent('Cat #1')}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      tokenId: tokenId(1),
      collectionSize: 4,
      rarityRank: 1,
      traits: [
        { traitType: 'Background', value: 'Blue', count: 2, share: 0.5 },
        { traitType: 'Eyes', value: 'Green', count: 1, share: 0.25 },
      ],
    });
  });
});
