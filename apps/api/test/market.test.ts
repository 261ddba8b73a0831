import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, addr, createHarness } from './support/fixtures';

const CATS_CREATOR = addr(0xc1);
const DOGS_CREATOR = addr(0xd1);
const SELLER = addr(0xa1);
const BUYER = addr(0xb1);
const CATS = addr(0x100);
const DOGS = addr(0x200);
const MONKEYS = addr(0x300);
const cat = (n: number) => addr(0x1000 + n);
const dog = (n: number) => addr(0x2000 + n);
const USDC = '0xusdc::coin::USDC';

describe('market routes', () => {
  let h: ApiHarness;

  beforeAll(async () => {
    h = await createHarness();
    const { fx } = h;
    await fx.collection({ id: CATS, creator: CATS_CREATOR, name: 'Cats', lootboxId: 7 });
    await fx.collection({ id: DOGS, creator: DOGS_CREATOR, name: 'Dogs' });
    await fx.collection({ id: MONKEYS, creator: DOGS_CREATOR, name: 'Aptos Monkeys' });
    await fx.lootbox({
      id: 7,
      creator: CATS_CREATOR,
      name: 'Cats',
      collectionId: CATS,
      mintStart: '2026-01-01T00:00:00Z',
    });
    for (let n = 1; n <= 4; n++) {
      await fx.token({
        id: cat(n),
        collectionId: CATS,
        creator: CATS_CREATOR,
        collection: 'Cats',
        name: `Cat #${n}`,
      });
      await fx.listing({
        id: `c${n}`,
        tokenId: cat(n),
        tokenName: `Cat #${n}`,
        collectionId: CATS,
        collection: 'Cats',
        creator: CATS_CREATOR,
        seller: SELLER,
        price: String(n * 100),
        version: 10 + n,
      });
    }
    await fx.listing({
      id: 'c1-old',
      tokenId: cat(1),
      tokenName: 'Cat #1',
      collectionId: CATS,
      collection: 'Cats',
      creator: CATS_CREATOR,
      seller: SELLER,
      price: '50',
      version: 5,
      status: 'cancelled',
    });
    await fx.ownership({ tokenId: cat(1), owner: SELLER, collectionId: CATS });
    for (let n = 1; n <= 2; n++) {
      await fx.token({
        id: dog(n),
        collectionId: DOGS,
        creator: DOGS_CREATOR,
        collection: 'Dogs',
        name: `Dog #${n}`,
      });
    }
    await fx.listing({
      id: 'd1',
      tokenId: dog(1),
      tokenName: 'Dog #1',
      collectionId: DOGS,
      collection: 'Dogs',
      creator: DOGS_CREATOR,
      seller: BUYER,
      price: '150',
      version: 20,
    });
    await fx.listing({
      id: 'd2',
      tokenId: dog(2),
      tokenName: 'Dog #2',
      collectionId: DOGS,
      collection: 'Dogs',
      creator: DOGS_CREATOR,
      seller: BUYER,
      price: '999',
      version: 21,
      coinType: USDC,
    });
    // A sale of Cat #1 earlier, and market events of both wallets.
    await fx.marketActivity({
      version: 8,
      kind: 'fill_listing',
      tokenId: cat(1),
      collectionId: CATS,
      collection: 'Cats',
      creator: CATS_CREATOR,
      price: '90',
      seller: BUYER,
      buyer: SELLER,
      listingId: 'old',
    });
    await fx.marketActivity({
      version: 11,
      kind: 'place_listing',
      tokenId: cat(1),
      collectionId: CATS,
      collection: 'Cats',
      creator: CATS_CREATOR,
      price: '100',
      seller: SELLER,
      listingId: 'c1',
    });
    await fx.marketActivity({
      version: 20,
      kind: 'place_listing',
      tokenId: dog(1),
      collectionId: DOGS,
      collection: 'Dogs',
      creator: DOGS_CREATOR,
      price: '150',
      seller: BUYER,
      listingId: 'd1',
    });
    await fx.tokenOffer({
      id: 'o1',
      tokenId: cat(1),
      collectionId: CATS,
      buyer: BUYER,
      price: '80',
      version: 30,
    });
    await fx.tokenOffer({
      id: 'o2',
      tokenId: cat(2),
      collectionId: CATS,
      buyer: BUYER,
      price: '500',
      version: 31,
      expires: '2020-01-01T00:00:00Z',
    });
    await fx.collectionOffer({ id: 'co1', collectionId: CATS, buyer: BUYER, price: '85', version: 32 });
    await h.test.db
      .insertInto('ranking_snapshots')
      .values({
        ranking: 'trending',
        position: 1,
        collection_id: DOGS,
        lootbox_id: null,
        score: 1,
        metrics: JSON.stringify({ volume: '1000' }),
        computed_at: new Date(),
      })
      .execute();
  });
  afterAll(() => h.close());

  it('token-history-by-tokenId lists the token timeline and 404s an unknown token', async () => {
    const res = await h.get(`/local/market/token-history-by-tokenId?tokenId=${cat(1)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((a: { kind: string }) => a.kind)).toEqual(['place_listing', 'fill_listing']);
    expect((await h.get('/market/token-history-by-tokenId?tokenId=0x999')).statusCode).toBe(404);
    expect((await h.get('/market/token-history-by-tokenId')).json().message).toContain("'tokenId'");
  });

  it('listing-card gives the listing, floor, best bid and last sale', async () => {
    const res = await h.get(`/market/listing-card?tokenId=${cat(1)}&tokenStandard=v2`);
    expect(res.statusCode).toBe(200);
    const card = res.json().data;
    expect(card.listing).toMatchObject({ listingId: 'c1', price: '100', seller: SELLER, status: 'active' });
    expect(card.status).toBe('active');
    expect(card.floorPrice).toBe('100');
    expect(card.bestBid).toMatchObject({ kind: 'collection_offer', price: '85' });
    expect(card.lastSale).toMatchObject({ price: '90', buyer: SELLER });
    expect(card.owners).toEqual([{ owner: SELLER, amount: '1' }]);
    expect(res.headers['cache-control']).toBe('private, max-age=5');
    expect((await h.get(`/market/listing-card?tokenId=${cat(1)}&tokenStandard=v1`)).statusCode).toBe(404);
    expect((await h.get(`/market/listing-card?tokenId=${cat(1)}`)).json().message).toContain(
      "'tokenStandard'",
    );
  });

  it('listings-by-collection takes the pair or lootboxId, 400 for neither', async () => {
    const byPair = (
      await h.get(`/market/listings-by-collection?creator=${CATS_CREATOR}&collection=Cats`)
    ).json();
    expect(byPair.data.map((l: { price: string }) => l.price)).toEqual(['100', '200', '300', '400']);
    expect(byPair.pagination.total).toBe(4);
    const byLootbox = (await h.get('/market/listings-by-collection?lootboxId=7')).json();
    expect(byLootbox).toEqual(byPair);
    const neither = await h.get(`/market/listings-by-collection?creator=${CATS_CREATOR}`);
    expect(neither.statusCode).toBe(400);
    expect(neither.json().message).toContain('lootboxId');
    expect((await h.get('/market/bids-by-collection')).statusCode).toBe(400);
    expect((await h.get('/market/listings-by-collection?lootboxId=99')).statusCode).toBe(404);
    const page2 = (await h.get('/market/listings-by-collection?lootboxId=7&limit=3&page=2')).json();
    expect(page2.data.map((l: { price: string }) => l.price)).toEqual(['400']);
  });

  it('bids-by-collection lists live bids, highest first, without expired ones', async () => {
    const res = (await h.get(`/market/bids-by-collection?creator=${CATS_CREATOR}&collection=Cats`)).json();
    expect(res.data.map((b: { offerId: string }) => b.offerId)).toEqual(['co1', 'o1']);
    expect(res.data[0]).toMatchObject({ kind: 'collection_offer', quantity: '5', tokenId: null });
    expect(res.pagination.total).toBe(2);
  });

  it('search is typo-tolerant and ranks exact matches first', async () => {
    const res = (await h.get('/market/search?text=Aptos%20Monkees')).json();
    expect(res.data.collections[0]).toMatchObject({ collectionId: MONKEYS, collection: 'Aptos Monkeys' });
    const tokens = (await h.get('/market/search?text=Cat%20%232')).json();
    expect(tokens.data.tokens[0]).toMatchObject({ tokenId: cat(2) });
    expect((await h.get('/market/search')).statusCode).toBe(400);
  });

  it('listing-cards filters and total-listing-cards always agree', async () => {
    const cases = [
      '',
      'minPrice=150&maxPrice=400',
      `coinType=${encodeURIComponent(USDC)}`,
      'collectionName=Dogs',
      `creatorAddress=${CATS_CREATOR.replace(/^0x0+/, '0x')}`,
      'search=dog',
      'search=Cats&maxPrice=200',
      `collectionUrl=${encodeURIComponent('https://example.com/Dogs.json')}`,
    ];
    const expected = [6, 4, 1, 2, 4, 2, 2, 2];
    for (const [i, filter] of cases.entries()) {
      const list = (await h.get(`/market/listing-cards?limit=100&${filter}`)).json();
      const total = (await h.get(`/market/total-listing-cards?${filter}`)).json();
      expect(list.pagination.total, filter).toBe(expected[i]);
      expect(list.data.length, filter).toBe(expected[i]);
      expect(total.data.total, filter).toBe(expected[i]);
    }
    const newest = (await h.get('/market/listing-cards?limit=2')).json();
    expect(newest.data.map((l: { listingId: string }) => l.listingId)).toEqual(['d2', 'd1']);
    expect(newest.pagination).toMatchObject({ page: 1, limit: 2, total: 6, hasMore: true });
    const next = (await h.get(`/market/listing-cards?limit=2&cursor=${newest.pagination.nextCursor}`)).json();
    const page2 = (await h.get('/market/listing-cards?limit=2&page=2')).json();
    expect(next.data).toEqual(page2.data);
    expect((await h.get('/market/listing-cards?minPrice=abc')).json().message).toContain('minPrice');
  });

  it('listing-cards byPopular puts trending collections first', async () => {
    const res = (await h.get('/market/listing-cards?byPopular=true')).json();
    expect(res.data.slice(0, 2).map((l: { collection: string }) => l.collection)).toEqual(['Dogs', 'Dogs']);
    expect(res.data[2]).toMatchObject({ listingId: 'c4' });
    const first = (await h.get('/market/listing-cards?byPopular=true&limit=3')).json();
    const rest = (
      await h.get(`/market/listing-cards?byPopular=true&limit=10&cursor=${first.pagination.nextCursor}`)
    ).json();
    expect([...first.data, ...rest.data]).toEqual(res.data);
  });

  it('user-scoped routes: activity, listings, bids, history', async () => {
    const activity = (await h.get(`/market/user-activity?address=${SELLER}`)).json();
    expect(activity.data.map((a: { version: number }) => a.version)).toEqual([11, 8]);
    expect(activity.pagination.total).toBe(2);
    const listings = (await h.get(`/market/user-listings?address=${SELLER}`)).json();
    expect(listings.data.map((l: { listingId: string }) => l.listingId)).toEqual(['c4', 'c3', 'c2', 'c1']);
    const bids = (await h.get(`/market/user-bids?address=${BUYER}`)).json();
    expect(bids.data.map((b: { offerId: string }) => b.offerId)).toEqual(['co1', 'o1']);
    const history = (await h.get(`/market/user-history?address=${SELLER}`)).json();
    expect(history.data).toHaveLength(1);
    expect(history.data[0]).toMatchObject({ kind: 'fill_listing', buyer: SELLER, price: '90' });
    expect((await h.get('/market/user-bids')).statusCode).toBe(400);
  });

  it('a one- or two-letter search counts what it lists: names that contain it, and unnamed listings of collections whose name does', async () => {
    const club = addr(0x70001);
    const other = addr(0x70002);
    await h.fx.collection({ id: club, creator: DOGS_CREATOR, name: 'Qx Club' });
    await h.fx.collection({ id: other, creator: DOGS_CREATOR, name: 'Plain' });
    const listing = (id: string, tokenName: string, collectionId: string, collection: string, n: number) =>
      h.fx.listing({
        id,
        tokenId: addr(0x71000 + n),
        tokenName,
        collectionId,
        collection,
        creator: DOGS_CREATOR,
        seller: SELLER,
        price: String(500 + n),
        version: 900 + n,
      });
    await listing('qx-member', 'Member 1', club, 'Qx Club', 1); // the collection's name matches
    await listing('qx-unnamed', 'Member 2', club, 'Qx Club', 2); // and this one has no name
    await listing('qx-badge', 'QX Badge', other, 'Plain', 3); // its own name matches, in any case
    await listing('plain-unnamed', 'Plain 4', other, 'Plain', 4); // neither
    await h.fx.listing({
      id: 'qx-old',
      tokenId: addr(0x71005),
      tokenName: 'qx old',
      collectionId: other,
      collection: 'Plain',
      creator: DOGS_CREATOR,
      seller: SELLER,
      price: '505',
      version: 905,
      status: 'cancelled',
    });
    await h.test.db
      .updateTable('listings')
      .set({ token_name: null })
      .where('listing_id', 'in', ['qx-unnamed', 'plain-unnamed'])
      .execute();
    const listed = (await h.get('/market/listing-cards?search=qx&limit=100')).json();
    expect(listed.data.map((l: { listingId: string }) => l.listingId).sort()).toEqual([
      'qx-badge',
      'qx-member',
      'qx-unnamed',
    ]);
    expect(listed.pagination.total).toBe(3);
    expect((await h.get('/market/total-listing-cards?search=qx')).json().data.total).toBe(3);
    // One letter, the same rule: every listing above but the unnamed one of Plain and the cancelled one.
    const q = (await h.get('/market/listing-cards?search=Q&limit=100')).json();
    expect(q.pagination.total).toBe(q.data.length);
    expect(q.data.map((l: { listingId: string }) => l.listingId)).toEqual(
      expect.arrayContaining(['qx-badge', 'qx-member', 'qx-unnamed']),
    );
  });

  it('a search counts every matching collection: no cap on how many collections match', async () => {
    // 600 collections whose names match, one listing each (token names that do not match).
    const herd = Array.from({ length: 600 }, (_, i) => i);
    for (let at = 0; at < herd.length; at += 50) {
      await Promise.all(
        herd.slice(at, at + 50).map(async (i) => {
          const id = addr(0x50000 + i);
          await h.fx.collection({ id, creator: DOGS_CREATOR, name: `Zebra Herd ${i}` });
          await h.fx.listing({
            id: `z${i}`,
            tokenId: addr(0x60000 + i),
            tokenName: `Stripe ${i}`,
            collectionId: id,
            collection: `Zebra Herd ${i}`,
            creator: DOGS_CREATOR,
            seller: SELLER,
            price: String(1000 + i),
            version: 100 + i,
          });
        }),
      );
    }
    const total = (await h.get('/market/total-listing-cards?search=Zebra%20Herd')).json();
    expect(total.data.total).toBe(600);
    const page = (await h.get('/market/listing-cards?search=Zebra%20Herd&limit=100&page=6')).json();
    expect(page.pagination.total).toBe(600);
    expect(page.data).toHaveLength(100);
    expect(page.data.at(-1)).toMatchObject({ listingId: 'z0' });
  });
});
