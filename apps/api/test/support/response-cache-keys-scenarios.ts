import { type Db, sql } from '@mdq/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUYER,
  CACHED,
  CAT_LISTING,
  COLLECTION,
  CREATOR,
  OWNER,
  seedCachedRoutes,
  TOKEN,
} from './cached-routes';
import { type ApiHarness, addr, createHarness, Fixtures } from './fixtures';

/*
 * The response cache keys each answer by the write counters of the tables its route reads, and a
 * collection page by its collection's counters: a write retires exactly the answers that read what
 * it wrote. `x-mdq-cache` says whether the route ran (`miss`) or the body came from the cache (`hit`).
 *
 * The same scenarios run twice (response-cache-keys.test.ts, response-cache-keys-announced.test.ts):
 * with the counters read per request, and with the API listening, its answers keyed on the
 * announcements of the counters' changes. Every counter that moves is announced, so the two must
 * retire exactly the same answers; with the announcements, each request first waits until every
 * commit before it has been heard (`settled`), so that a scenario asks about its writes' effect and
 * not about the notifications' delivery time.
 */

/** How the answers are keyed: by the counters read per request, or by the announcements heard. */
export type KeyMode = 'counters' | 'announcements';

let mode: KeyMode = 'counters';

/** A harness of the mode: with the announcements, listening and heard up to now. */
async function harnessOf(options: Parameters<typeof createHarness>[0] = {}): Promise<ApiHarness> {
  if (mode === 'counters') return createHarness(options);
  const h = await createHarness({ ...options, pushedMaxStaleMs: 60_000 });
  for (let i = 0; i < 1_000 && !h.app.readState.pushing; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (!h.app.readState.pushing) throw new Error('the harness never listened');
  return h;
}

/** Every commit so far heard (nothing to wait for when the counters are read). */
const settled = (h: ApiHarness) => h.app.readState.settled();

/** Answers asked through cacheOf, and the readings of the counters they sent. */
const asked = { answers: 0, readings: 0 };

const cacheOf = async (h: ApiHarness, url: string) => {
  await settled(h);
  const readings = h.app.readState.readings;
  const response = await h.get(url);
  asked.answers += 1;
  asked.readings += h.app.readState.readings - readings;
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return { state: String(response.headers['x-mdq-cache']), body: response.body };
};

/** Asks every URL until it is a hit (the first answer is a miss that stores it). */
async function warm(h: ApiHarness, urls: readonly string[]): Promise<Map<string, string>> {
  const bodies = new Map<string, string>();
  for (const url of urls) {
    await cacheOf(h, url);
    const again = await cacheOf(h, url);
    expect(again.state, url).toBe('hit');
    bodies.set(url, again.body);
  }
  return bodies;
}

/** The URLs of `urls` whose next answer is a miss. */
async function missed(h: ApiHarness, urls: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const url of urls) if ((await cacheOf(h, url)).state === 'miss') out.push(url);
  return out;
}

const path = (url: string) => url.split('?')[0];

/** The cache's hits and misses of one route pattern so far, as `GET /metrics` reports them. */
async function cacheCounts(h: ApiHarness, route: string): Promise<{ hit: number; miss: number }> {
  const metrics = (await h.app.inject('/metrics')).body;
  const count = (result: string) => {
    const line = metrics
      .split('\n')
      .find((l) => l.startsWith(`mdq_api_cache_answers_total{route="${route}",result="${result}"}`));
    return Number(line?.split(' ').at(-1) ?? 0);
  };
  return { hit: count('hit'), miss: count('miss') };
}

/** The collection Dogs (by CREATOR) and its token Dog #1, which `owner` holds and lists at `price`. */
async function seedDogs(
  h: ApiHarness,
  ids: { collection: string; token: string },
  owner: string,
  price: string,
  version: number,
) {
  await h.fx.collection({ id: ids.collection, creator: CREATOR, name: 'Dogs' });
  await h.fx.token({
    id: ids.token,
    collectionId: ids.collection,
    creator: CREATOR,
    collection: 'Dogs',
    name: 'Dog #1',
  });
  await h.fx.ownership({ tokenId: ids.token, owner, collectionId: ids.collection });
  await h.fx.listing({
    id: 'd1',
    tokenId: ids.token,
    tokenName: 'Dog #1',
    collectionId: ids.collection,
    collection: 'Dogs',
    creator: CREATOR,
    seller: owner,
    price,
    version,
  });
}

/** Each of `wallets` must have counters of its own: a bucket no other of them shares. */
async function expectOwnBuckets(h: ApiHarness, wallets: readonly string[]) {
  const { rows } = await sql<{ bucket: number }>`
    SELECT hashtext(a) & 65535 AS bucket FROM unnest(${wallets}::text[]) AS a`.execute(h.test.db);
  expect(new Set(rows.map((r) => r.bucket)).size).toBe(wallets.length);
}

/** The scenarios, keyed as `keyedBy` says. */
export function responseCacheKeyScenarios(keyedBy: KeyMode): void {
  mode = keyedBy;
  if (keyedBy === 'announcements') {
    afterAll(() => {
      // The answers were keyed on the announcements, not on readings (a reading per block, per
      // scope resolved and per harness's first request): else these scenarios proved nothing new.
      expect(asked.answers).toBeGreaterThan(1_000);
      expect(asked.readings).toBeLessThan(asked.answers / 10);
    });
  }
  describe('per-table keys: a write retires exactly the answers that read its table', () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await harnessOf();
      await seedCachedRoutes(h);
    });
    afterAll(() => h?.close());

    it('a token transfer (token_activities) retires the token timelines only', async () => {
      await warm(h, CACHED);
      const before = await cacheOf(h, `/market/token-history-by-tokenId?tokenId=${TOKEN}`);
      await h.fx.tokenActivity({
        version: 5,
        kind: 'transfer',
        tokenId: TOKEN,
        collectionId: COLLECTION,
        from: OWNER,
        to: BUYER,
      });
      expect((await missed(h, CACHED)).map(path).sort()).toEqual([
        '/market/token-history-by-tokenId',
        '/token/activity',
      ]);
      // And the new answer has the transfer: never the stale body.
      const after = await cacheOf(h, `/market/token-history-by-tokenId?tokenId=${TOKEN}`);
      expect(after.state).toBe('hit');
      expect(after.body).not.toBe(before.body);
      expect(after.body).toContain('"transfer"');
    });

    it('a ranking run (ranking_snapshots) retires the rankings and the listing cards only', async () => {
      await warm(h, CACHED);
      await h.test.db.deleteFrom('ranking_snapshots').where('ranking', '=', 'top').execute();
      expect((await missed(h, CACHED)).map(path).sort()).toEqual([
        '/market/listing-cards',
        '/rankings/daily-picks',
        '/rankings/top-collections',
        '/rankings/trending-collections',
      ]);
      const top = await cacheOf(h, '/rankings/top-collections');
      expect((JSON.parse(top.body) as { data: unknown[] }).data).toEqual([]);
    });

    it("a collection's counts moving retire only the pages that show them", async () => {
      await warm(h, CACHED);
      // What a block of mints and transfers does to a collection's row.
      await h.test.db
        .updateTable('collections')
        .set((eb) => ({
          owner_count: eb('owner_count', '+', 1),
          current_supply: '7',
          total_minted: '7',
          last_transaction_version: eb('last_transaction_version', '+', 1),
        }))
        .where('collection_id', '=', COLLECTION)
        .execute();
      // The listing cards show each collection's supply; the lootbox's collection page its owners.
      expect(await missed(h, CACHED)).toEqual([
        '/market/listing-cards',
        '/market/total-listing-cards',
        `/token-collection-by-lootbox-creator?creator=${CREATOR}&collection=Cats`,
      ]);
    });

    it("a collection's owner count leaves the rankings cached; its rename retires them, with the new name", async () => {
      const rankings = CACHED.filter((url) => /\/rankings\/(trending|top|daily)/.test(url));
      expect(rankings).toHaveLength(3);
      await warm(h, rankings);
      // What every block does to collections: nothing a ranking shows.
      await h.test.db
        .updateTable('collections')
        .set((eb) => ({ owner_count: eb('owner_count', '+', 1) }))
        .where('collection_id', '=', COLLECTION)
        .execute();
      expect(await missed(h, rankings)).toEqual([]);
      const rename = (name: string) =>
        h.test.db
          .updateTable('collections')
          .set({ collection_name: name })
          .where('collection_id', '=', COLLECTION)
          .execute();
      await rename('Cats Renamed');
      try {
        expect(await missed(h, rankings)).toEqual(rankings);
        // The rankings that rank Cats (a test above emptied `top`) show its new name.
        const names = await Promise.all(
          rankings.map(async (url) =>
            (JSON.parse((await cacheOf(h, url)).body) as { data: { collection: string }[] }).data.map(
              (r) => r.collection,
            ),
          ),
        );
        expect(names.flat()).toEqual(['Cats Renamed', 'Cats Renamed']);
      } finally {
        await rename('Cats');
      }
    });

    it('a write to closed listings only leaves the listing cards cached; a new active listing retires them', async () => {
      await h.fx.listing({ ...CAT_LISTING, id: 'closed', price: '70', status: 'sold', version: 4 });
      await warm(h, CACHED);
      // The indexer fills in a sold listing's buyer: `listings` moves, the active listings do not.
      await h.test.db
        .updateTable('listings')
        .set({ buyer: BUYER })
        .where('listing_id', '=', 'closed')
        .execute();
      const closedOnly = (await missed(h, CACHED)).map(path);
      expect(closedOnly).not.toContain('/market/listing-cards');
      expect(closedOnly).not.toContain('/market/total-listing-cards');
      // The write was seen: the pages keyed on the collection's listings retire.
      expect(closedOnly).toContain('/market/listings-by-collection');
      await warm(h, CACHED);
      await h.fx.listing({ ...CAT_LISTING, id: 'fresh', price: '65', version: 5 });
      const opened = (await missed(h, CACHED)).map(path);
      expect(opened).toContain('/market/listing-cards');
      expect(opened).toContain('/market/total-listing-cards');
      const cards = await cacheOf(h, '/market/listing-cards');
      expect(cards.body).toContain('"fresh"');
    });

    it('a write to a table no cached route reads retires nothing', async () => {
      await warm(h, CACHED);
      await h.test.db
        .insertInto('user_inventory_snapshots')
        .values({
          owner_address: OWNER,
          snapshot_at: '2026-06-01T00:00:00Z',
          token_count: 1,
          floor_value: '0',
        })
        .execute();
      expect(await missed(h, CACHED)).toEqual([]);
    });
  });

  describe('per-collection keys: a sale in one collection leaves the other collections cached', () => {
    const DOGS = addr(0x200);
    const DOG = addr(0x2001);
    const pages = (name: string) => [
      `/tokens-by-collection?creator=${CREATOR}&collection=${name}`,
      `/market/listings-by-collection?creator=${CREATOR}&collection=${name}`,
      `/market/bids-by-collection?creator=${CREATOR}&collection=${name}`,
      `/rarities-by-collection?creator=${CREATOR}&collection=${name}`,
    ];
    let h: ApiHarness;

    beforeAll(async () => {
      h = await harnessOf();
      await seedCachedRoutes(h);
      await seedDogs(h, { collection: DOGS, token: DOG }, OWNER, '300', 4);
    });
    afterAll(() => h?.close());

    it('a sale of a Cat retires the Cats pages that read what it wrote and no Dogs page', async () => {
      await warm(h, [...pages('Cats'), ...pages('Dogs')]);
      // The indexer's sale: the listing closes, the fill is recorded, the token changes hands, and
      // the collection's owner count moves, in one transaction.
      await h.test.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('listings')
          .set({ status: 'sold', buyer: BUYER, closed_at: '2026-11-01T00:01:00Z' })
          .where('listing_id', '=', 'l1')
          .execute();
        await trx
          .updateTable('token_ownerships')
          .set({ owner_address: BUYER })
          .where('token_data_id', '=', TOKEN)
          .execute();
        await trx
          .updateTable('collections')
          .set({ owner_count: 1 })
          .where('collection_id', '=', COLLECTION)
          .execute();
        await sql`UPDATE indexer_checkpoints SET last_version = 6`.execute(trx);
      });
      // The Cats page that reads the listing retires; the owner count, a count no page here shows,
      // retires none (they key on the collection's identity); no Dogs page does.
      expect(await missed(h, pages('Dogs'))).toEqual([]);
      expect(await missed(h, pages('Cats'))).toEqual([pages('Cats')[1]]);
      const listings = await cacheOf(h, pages('Cats')[1] ?? '');
      expect((JSON.parse(listings.body) as { data: unknown[] }).data).toEqual([]);
    });

    it('a new Dogs listing retires the Dogs listings page, and no Cats page', async () => {
      await warm(h, [...pages('Cats'), ...pages('Dogs')]);
      await h.fx.listing({
        id: 'd2',
        tokenId: DOG,
        tokenName: 'Dog #1',
        collectionId: DOGS,
        collection: 'Dogs',
        creator: CREATOR,
        seller: OWNER,
        price: '250',
        version: 7,
      });
      expect(await missed(h, pages('Cats'))).toEqual([]);
      expect(await missed(h, pages('Dogs'))).toEqual([pages('Dogs')[1]]);
      const listings = await cacheOf(h, pages('Dogs')[1] ?? '');
      expect(listings.body).toContain('"250"');
    });

    it("the lootbox's collection page keys on its collection: a Dogs listing leaves it cached, a Cats listing retires it", async () => {
      const facts = `/token-collection-by-lootbox-creator?creator=${CREATOR}&collection=Cats`;
      const listedCount = async () =>
        (JSON.parse((await cacheOf(h, facts)).body) as { data: { listedCount: number } }).data.listedCount;
      await warm(h, [facts]);
      const before = await listedCount();
      await h.fx.listing({
        ...CAT_LISTING,
        id: 'd3',
        tokenId: DOG,
        tokenName: 'Dog #1',
        collectionId: DOGS,
        collection: 'Dogs',
        price: '260',
        version: 8,
      });
      expect(await missed(h, [facts])).toEqual([]);
      await h.fx.listing({ ...CAT_LISTING, id: 'c9', price: '120', version: 9 });
      expect(await missed(h, [facts])).toEqual([facts]);
      expect(await listedCount()).toBe(before + 1);
    });

    it("a purchase in Cats' lootbox retires no Dogs page: asked by pair, a page keys on its own collection's lootbox", async () => {
      await warm(h, [...pages('Cats'), ...pages('Dogs')]);
      await h.test.db.updateTable('lootboxes').set({ purchased: '2' }).where('lootbox_id', '=', 7).execute();
      expect(await missed(h, pages('Dogs'))).toEqual([]);
      // The lootbox is Cats': the Cats pages that name lootboxes retire (cautiously: by pair they read none).
      expect(await missed(h, pages('Cats'))).toEqual([pages('Cats')[1], pages('Cats')[2]]);
    });

    it('a crawled document of a Dog retires the Dogs token pages, and no Cats page', async () => {
      const traits = (name: string, token: string) =>
        `/token/traits?creator=${CREATOR}&collection=${name}&tokenName=${encodeURIComponent(token)}&tokenStandard=v2`;
      const tokenPages = [
        ...pages('Cats'),
        traits('Cats', 'Cat #1'),
        ...pages('Dogs'),
        traits('Dogs', 'Dog #1'),
      ];
      await warm(h, tokenPages);
      await sql`INSERT INTO metadata_documents (kind, subject_id, collection_id, uri, subject_version, status,
                  image, attributes, fetched_at, refresh_at)
                VALUES ('token', ${DOG}, ${DOGS}, 'https://example.test/dog/1', 4, 'ok',
                  'https://example.test/dog/1.png', '[{"trait_type":"Coat","value":"Spotted"}]', now(), now())`.execute(
        h.test.db,
      );
      await h.fx.attribute(DOG, DOGS, 'Coat', 'Spotted');
      expect(await missed(h, [...pages('Cats'), traits('Cats', 'Cat #1')])).toEqual([]);
      // The token list shows the document's image; the traits page the new trait.
      expect(await missed(h, [...pages('Dogs'), traits('Dogs', 'Dog #1')])).toEqual([
        pages('Dogs')[0],
        traits('Dogs', 'Dog #1'),
      ]);
      expect((await cacheOf(h, pages('Dogs')[0] ?? '')).body).toContain('dog/1.png');
      expect((await cacheOf(h, traits('Dogs', 'Dog #1'))).body).toContain('"Spotted"');
    });

    it("a token's card, history and activity key on its collection: a Dog's sale retires the Dog's, no Cat's", async () => {
      const names = new Map([
        [TOKEN, ['Cats', 'Cat #1']],
        [DOG, ['Dogs', 'Dog #1']],
      ]);
      const tokenPages = (token: string) => [
        `/market/listing-card?tokenId=${token}&tokenStandard=v2`,
        `/market/token-history-by-tokenId?tokenId=${token}`,
        `/token/activity?creator=${CREATOR}&collection=${names.get(token)?.[0]}&tokenName=${encodeURIComponent(names.get(token)?.[1] ?? '')}&tokenStandard=v2`,
      ];
      await warm(h, [...tokenPages(TOKEN), ...tokenPages(DOG)]);
      await h.fx.marketActivity({
        version: 20,
        kind: 'fill_listing',
        tokenId: DOG,
        collectionId: DOGS,
        collection: 'Dogs',
        creator: CREATOR,
        price: '275',
        seller: OWNER,
        buyer: BUYER,
      });
      expect(await missed(h, tokenPages(TOKEN))).toEqual([]);
      expect(await missed(h, tokenPages(DOG))).toEqual(tokenPages(DOG));
      // Never stale: the sale is on the card and in the history.
      expect((await cacheOf(h, tokenPages(DOG)[0] ?? '')).body).toContain('"275"');
      expect((await cacheOf(h, tokenPages(DOG)[1] ?? '')).body).toContain('"275"');
      // A Cat's transfer stored without its collection counts for the Cats (its token's collection).
      await warm(h, [...tokenPages(TOKEN), ...tokenPages(DOG)]);
      await h.fx.tokenActivity({
        version: 21,
        kind: 'transfer',
        tokenId: TOKEN,
        collectionId: null,
        to: BUYER,
      });
      expect(await missed(h, tokenPages(DOG))).toEqual([]);
      expect(await missed(h, tokenPages(TOKEN))).toEqual([tokenPages(TOKEN)[1], tokenPages(TOKEN)[2]]);
      expect((await cacheOf(h, tokenPages(TOKEN)[1] ?? '')).body).toContain('"transfer"');
      expect((await cacheOf(h, tokenPages(TOKEN)[2] ?? '')).body).toContain('"transfer"');
    });

    it('a mint in Dogs retires the Dogs pages that read tokens, and no Cats page', async () => {
      await warm(h, [...pages('Cats'), ...pages('Dogs')]);
      await h.fx.token({
        id: addr(0x2002),
        collectionId: DOGS,
        creator: CREATOR,
        collection: 'Dogs',
        name: 'Dog #3',
      });
      expect(await missed(h, pages('Cats'))).toEqual([]);
      // Bids read no token.
      expect(await missed(h, pages('Dogs'))).toEqual([pages('Dogs')[0], pages('Dogs')[1], pages('Dogs')[3]]);
      expect((await cacheOf(h, pages('Dogs')[0] ?? '')).body).toContain('Dog #3');
    });

    it('a burn in Dogs retires the Dogs token page, whose total (the kept live count) drops; no Cats page', async () => {
      const live = async () =>
        (
          await sql<{
            n: number;
          }>`SELECT count(*)::int AS n FROM tokens WHERE collection_id = ${DOGS} AND NOT is_burned`.execute(
            h.test.db,
          )
        ).rows[0]?.n;
      await warm(h, [...pages('Cats'), ...pages('Dogs')]);
      const before = await live();
      await h.test.db
        .updateTable('tokens')
        .set({ is_burned: true })
        .where('token_data_id', '=', addr(0x2002))
        .execute();
      expect(await missed(h, pages('Cats'))).toEqual([]);
      expect(await missed(h, [pages('Dogs')[0] ?? ''])).toEqual([pages('Dogs')[0]]);
      const total = (
        JSON.parse((await cacheOf(h, pages('Dogs')[0] ?? '')).body) as { pagination: { total: number } }
      ).pagination.total;
      expect(total).toBe(await live());
      expect(total).toBe((before ?? 0) - 1);
    });

    it('never stale: a collection that takes the pair joins its page at once, though no row of the others changed', async () => {
      await warm(h, pages('Dogs'));
      const other = addr(0x300);
      await h.fx.collection({ id: other, creator: CREATOR, name: 'Dogs', standard: 'v1' });
      await h.fx.token({
        id: addr(0x3001),
        collectionId: other,
        creator: CREATOR,
        collection: 'Dogs',
        name: 'Dog #2',
      });
      const tokens = await cacheOf(h, pages('Dogs')[0] ?? '');
      expect(tokens.state).toBe('miss');
      expect(tokens.body).toContain('Dog #2');
      expect(tokens.body).toContain('Dog #1');
      expect((await cacheOf(h, pages('Dogs')[0] ?? '')).state).toBe('hit');
      // And leaves it at once when it takes another name: the ids are those of the warm key again,
      // and none of their rows changed; the pair's own counter moved.
      await h.test.db
        .updateTable('collections')
        .set({ collection_name: 'Wolves' })
        .where('collection_id', '=', other)
        .execute();
      const left = await cacheOf(h, pages('Dogs')[0] ?? '');
      expect(left.state).toBe('miss');
      expect(left.body).not.toContain('Dog #2');
      expect(left.body).toContain('Dog #1');
    });

    it('TRUNCATE retires every collection page of the table', async () => {
      await warm(h, [...pages('Cats'), ...pages('Dogs')]);
      await sql`TRUNCATE token_offers`.execute(h.test.db);
      expect(await missed(h, [...pages('Cats'), ...pages('Dogs')])).toEqual([
        pages('Cats')[2],
        pages('Dogs')[2],
      ]);
    });
  });

  describe('per-collection keys of the analytics: asked by id or by pair, a sale elsewhere leaves them cached', () => {
    const DOGS = addr(0x200);
    const DOG = addr(0x2001);
    // The clock pinned: the trailing windows end at this instant, so only a write retires an answer.
    const NOW = new Date('2026-11-02T00:00:00Z');
    const TO = '2026-11-02T00:00:00Z';
    const analytics = (id: string, name: string) => [
      `/collection-history?collectionId=${id}&interval=1d&to=${TO}`,
      `/collection-history?creator=${CREATOR}&collection=${name}&interval=1h&to=${TO}`,
      `/collection-top-traders?collectionId=${id}&window=all`,
      `/collection-top-traders?creator=${CREATOR}&collection=${name}&window=30d`,
      ...stats(id, name),
      ...traitFloors(id, name),
    ];
    const traitFloors = (id: string, name: string) => [
      `/collection-trait-floors?collectionId=${id}`,
      `/collection-trait-floors?creator=${CREATOR}&collection=${name}&includeFlagged=true`,
    ];
    const stats = (id: string, name: string) => [
      `/collection-stats?collectionId=${id}&window=all`,
      `/collection-stats?creator=${CREATOR}&collection=${name}&window=30d`,
    ];
    const byLootbox = [
      `/collection-history?lootboxId=7&interval=1d&to=${TO}`,
      '/collection-top-traders?lootboxId=7',
    ];
    const sale = (
      version: number,
      collectionId: string,
      collection: string,
      tokenId: string,
      price: string,
    ) => ({
      version,
      kind: 'fill_listing',
      tokenId,
      collectionId,
      collection,
      creator: CREATOR,
      price,
      seller: OWNER,
      buyer: BUYER,
    });
    let h: ApiHarness;

    beforeAll(async () => {
      h = await harnessOf({ clock: () => NOW });
      await seedCachedRoutes(h);
      await h.fx.collection({ id: DOGS, creator: CREATOR, name: 'Dogs' });
      await h.fx.token({ id: DOG, collectionId: DOGS, creator: CREATOR, collection: 'Dogs', name: 'Dog #1' });
      await h.fx.marketActivity(sale(4, DOGS, 'Dogs', DOG, '300'));
    });
    afterAll(() => h?.close());

    it('a sale in Dogs retires every Dogs analytics answer, by id and by pair, and no Cats one', async () => {
      const cats = analytics(COLLECTION, 'Cats');
      const dogs = analytics(DOGS, 'Dogs');
      await warm(h, [...cats, ...dogs, ...byLootbox]);
      await h.fx.marketActivity(sale(8, DOGS, 'Dogs', DOG, '450'));
      expect(await missed(h, cats)).toEqual([]);
      expect(await missed(h, dogs)).toEqual(dogs);
      // The new sale is in the answers that retired.
      const traders = JSON.parse((await cacheOf(h, dogs[2] ?? '')).body) as {
        data: { buyers: { volume: string }[] };
      };
      expect(traders.data.buyers[0]?.volume).toBe('750');
      // Asked by lootbox, the answer keys on the global counters: any sale retires it.
      expect(await missed(h, byLootbox)).toEqual(byLootbox);
    });

    it("a purchase in Cats' lootbox (its row rewritten) leaves every Dogs answer cached", async () => {
      const cats = analytics(COLLECTION, 'Cats');
      const dogs = analytics(DOGS, 'Dogs');
      await warm(h, [...cats, ...dogs, ...byLootbox]);
      await h.test.db.updateTable('lootboxes').set({ purchased: '1' }).where('lootbox_id', '=', 7).execute();
      expect(await missed(h, dogs)).toEqual([]);
      // The lootbox is Cats': its counter is Cats' (the answers by id or pair read no lootbox, so
      // retiring them is only cautious); asked by lootbox, the global counter moved.
      expect(await missed(h, [...cats, ...byLootbox])).toEqual([...cats, ...byLootbox]);
    });

    it('a transfer in Dogs (its ownerships and token activity) retires the Dogs stats only', async () => {
      const cats = analytics(COLLECTION, 'Cats');
      const dogs = analytics(DOGS, 'Dogs');
      await warm(h, [...cats, ...dogs]);
      const before = JSON.parse((await cacheOf(h, stats(DOGS, 'Dogs')[0] ?? '')).body) as {
        data: { top10HoldersShare: number | null };
      };
      await h.test.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('token_ownerships').where('token_data_id', '=', DOG).execute();
        await trx
          .insertInto('token_ownerships')
          .values({
            token_data_id: DOG,
            property_version: '0',
            owner_address: BUYER,
            collection_id: DOGS,
            token_standard: 'v2',
            amount: '1',
            last_transaction_version: 10,
          })
          .execute();
      });
      await h.fx.tokenActivity({
        version: 10,
        kind: 'transfer',
        tokenId: DOG,
        collectionId: DOGS,
        to: BUYER,
      });
      expect(await missed(h, cats)).toEqual([]);
      // History and top traders read sales alone: a transfer leaves them standing.
      expect(await missed(h, dogs)).toEqual(stats(DOGS, 'Dogs'));
      // Never stale: Dog #1 is held again, by its new owner.
      const after = JSON.parse((await cacheOf(h, stats(DOGS, 'Dogs')[0] ?? '')).body) as typeof before;
      expect(before.data.top10HoldersShare).toBe(0);
      expect(after.data.top10HoldersShare).toBe(1);
    });

    it("a Dog's traits (token_attributes, and the counts they keep) retire the Dogs trait floors and stats only", async () => {
      const cats = analytics(COLLECTION, 'Cats');
      const dogs = analytics(DOGS, 'Dogs');
      await warm(h, [...cats, ...dogs]);
      await h.fx.attribute(DOG, DOGS, 'Coat', 'Spotted');
      expect(await missed(h, cats)).toEqual([]);
      // The attributes' trigger keeps the value counts and the collection's totals, which stats read.
      expect(await missed(h, dogs)).toEqual([...stats(DOGS, 'Dogs'), ...traitFloors(DOGS, 'Dogs')]);
      // Never stale: the new value is in the answer.
      expect((await cacheOf(h, traitFloors(DOGS, 'Dogs')[0] ?? '')).body).toContain('"Spotted"');
    });

    it("a burn stored without its collection retires its token's collection's stats; of a token not stored, every collection's", async () => {
      const cats = analytics(COLLECTION, 'Cats');
      const dogs = analytics(DOGS, 'Dogs');
      await warm(h, [...cats, ...dogs]);
      await h.fx.tokenActivity({ version: 11, kind: 'burn', tokenId: DOG, collectionId: null });
      expect(await missed(h, cats)).toEqual([]);
      expect(await missed(h, dogs)).toEqual(stats(DOGS, 'Dogs'));
      await warm(h, [...cats, ...dogs]);
      await h.fx.tokenActivity({ version: 12, kind: 'burn', tokenId: addr(0x9999), collectionId: null });
      expect(await missed(h, [...cats, ...dogs])).toEqual([
        ...stats(COLLECTION, 'Cats'),
        ...stats(DOGS, 'Dogs'),
      ]);
    });

    it('never stale: a collection asked by an id it does not have yet answers 404, then its data once it exists', async () => {
      const wolves = addr(0x400);
      const url = `/collection-top-traders?collectionId=${wolves}&window=all`;
      await settled(h);
      expect((await h.get(url)).statusCode).toBe(404);
      await h.fx.collection({ id: wolves, creator: CREATOR, name: 'Wolves' });
      const first = await cacheOf(h, url);
      expect(first.state).toBe('miss');
      await h.fx.marketActivity(sale(9, wolves, 'Wolves', addr(0x4001), '5'));
      const after = await cacheOf(h, url);
      expect(after.state).toBe('miss');
      expect(after.body).toContain('"5"');
    });
  });

  describe('per-wallet keys: a sale or a bid retires the pages of the wallets it names only', () => {
    const OTHER = addr(0xc3);
    const pages = (wallet: string) => [
      `/market/user-activity?address=${wallet}`,
      `/market/user-history?address=${wallet}`,
      `/market/user-bids?address=${wallet}`,
    ];
    let h: ApiHarness;

    beforeAll(async () => {
      h = await harnessOf();
      await seedCachedRoutes(h);
      // OTHER's counters must be its own: its bucket is neither OWNER's nor BUYER's.
      await expectOwnBuckets(h, [OWNER, BUYER, OTHER]);
      await h.fx.marketActivity({
        version: 4,
        kind: 'fill_listing',
        tokenId: TOKEN,
        collectionId: COLLECTION,
        collection: 'Cats',
        creator: CREATOR,
        price: '20',
        seller: OTHER,
        buyer: OTHER,
      });
      await h.fx.tokenOffer({
        id: 'o9',
        tokenId: TOKEN,
        collectionId: COLLECTION,
        buyer: OTHER,
        price: '5',
        version: 4,
      });
    });
    afterAll(() => h?.close());

    it("a sale between OWNER and BUYER retires their activity and purchases, not OTHER's pages nor any bids", async () => {
      const all = [...pages(OWNER), ...pages(BUYER), ...pages(OTHER)];
      await warm(h, all);
      await h.fx.marketActivity({
        version: 8,
        kind: 'fill_listing',
        tokenId: TOKEN,
        collectionId: COLLECTION,
        collection: 'Cats',
        creator: CREATOR,
        price: '777',
        seller: OWNER,
        buyer: BUYER,
      });
      const retired = [pages(OWNER)[0], pages(OWNER)[1], pages(BUYER)[0], pages(BUYER)[1]];
      expect(await missed(h, all)).toEqual(retired);
      expect((await cacheOf(h, pages(BUYER)[1] ?? '')).body).toContain('"777"');
      expect((await cacheOf(h, pages(OWNER)[0] ?? '')).body).toContain('"777"');
    });

    it("a bid by OTHER retires OTHER's bids only", async () => {
      const all = [...pages(OWNER), ...pages(BUYER), ...pages(OTHER)];
      await warm(h, all);
      await h.fx.collectionOffer({
        id: 'c9',
        collectionId: COLLECTION,
        buyer: OTHER,
        price: '66',
        version: 9,
      });
      expect(await missed(h, all)).toEqual([pages(OTHER)[2]]);
      expect((await cacheOf(h, pages(OTHER)[2] ?? '')).body).toContain('"66"');
    });

    it('a short-form address is the same wallet: its answer retires with the long form', async () => {
      const short = `/market/user-activity?address=0xa1`;
      await warm(h, [short]);
      await h.fx.marketActivity({
        version: 10,
        kind: 'fill_listing',
        tokenId: TOKEN,
        collectionId: COLLECTION,
        collection: 'Cats',
        creator: CREATOR,
        price: '31',
        seller: OWNER,
        buyer: OTHER,
      });
      const after = await cacheOf(h, short);
      expect(after.state).toBe('miss');
      expect(after.body).toContain('"31"');
    });

    it('TRUNCATE retires every wallet page of the table', async () => {
      const all = [...pages(OWNER), ...pages(BUYER), ...pages(OTHER)];
      await warm(h, all);
      await sql`TRUNCATE token_offers`.execute(h.test.db);
      expect(await missed(h, all)).toEqual([pages(OWNER)[2], pages(BUYER)[2], pages(OTHER)[2]]);
    });
  });

  describe("per-wallet keys of holdings: a wallet's balances and listings retire with its rows and its tokens'", () => {
    const OTHER = addr(0xc3);
    const DOGS = addr(0x200);
    const DOG = addr(0x2001);
    const pages = (wallet: string) => [
      `/token-balances?address=${wallet}`,
      `/token-balances?address=${wallet}&serviceInfo=true`,
      `/market/user-listings?address=${wallet}`,
    ];
    const all = () => [...pages(OWNER), ...pages(BUYER), ...pages(OTHER)];
    let h: ApiHarness;

    beforeAll(async () => {
      h = await harnessOf();
      await seedCachedRoutes(h);
      await expectOwnBuckets(h, [OWNER, BUYER, OTHER]);
      // OTHER holds a Dog and lists it; OWNER holds and lists the Cat (seedCachedRoutes); BUYER holds nothing.
      await seedDogs(h, { collection: DOGS, token: DOG }, OTHER, '40', 3);
    });
    afterAll(() => h?.close());

    it("a Dog passing from OTHER to BUYER retires their balances only, and BUYER's shows it at once", async () => {
      await warm(h, all());
      await h.test.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('token_ownerships')
          .set({ amount: '0', last_transaction_version: 5 })
          .where('token_data_id', '=', DOG)
          .execute();
        await new Fixtures(trx).ownership({ tokenId: DOG, owner: BUYER, collectionId: DOGS, version: 5 });
      });
      expect(await missed(h, all())).toEqual([...pages(BUYER).slice(0, 2), ...pages(OTHER).slice(0, 2)]);
      expect((await cacheOf(h, pages(BUYER)[0] ?? '')).body).toContain(DOG);
    });

    it("a listing by OWNER retires OWNER's balances and listings, no other wallet's page", async () => {
      await warm(h, all());
      await h.fx.listing({ ...CAT_LISTING, id: 'l7', price: '55', version: 6 });
      expect(await missed(h, all())).toEqual(pages(OWNER));
      expect((await cacheOf(h, pages(OWNER)[2] ?? '')).body).toContain('"55"');
    });

    it("a write to a token's row retires the pages of the wallets that hold it or list it, and no other", async () => {
      await warm(h, all());
      // The Cat: held and listed by OWNER (BUYER bought one earlier, but holds no row of it).
      await h.test.db
        .updateTable('tokens')
        .set({ token_name: 'Cat #1 (renamed)' })
        .where('token_data_id', '=', TOKEN)
        .execute();
      expect(await missed(h, all())).toEqual(pages(OWNER));
      expect((await cacheOf(h, pages(OWNER)[0] ?? '')).body).toContain('Cat #1 (renamed)');
      // The Dog: held by BUYER now, still listed (stale) by OTHER, whose zero row stays too.
      await warm(h, all());
      await h.test.db
        .updateTable('tokens')
        .set({ token_uri: 'ipfs://dog' })
        .where('token_data_id', '=', DOG)
        .execute();
      expect(await missed(h, all())).toEqual([...pages(BUYER), ...pages(OTHER)]);
    });

    it('a rarity recompute retires the balances asked with serviceInfo only, of every wallet', async () => {
      await warm(h, all());
      await h.test.db
        .updateTable('token_rarity')
        .set({ rank: 2 })
        .where('token_data_id', '=', TOKEN)
        .execute();
      expect(await missed(h, all())).toEqual([pages(OWNER)[1], pages(BUYER)[1], pages(OTHER)[1]]);
    });

    it('TRUNCATE of the ownerships retires every balances page, no listings page', async () => {
      await warm(h, all());
      await sql`TRUNCATE token_ownerships`.execute(h.test.db);
      expect(await missed(h, all())).toEqual(
        [OWNER, BUYER, OTHER].flatMap((wallet) => pages(wallet).slice(0, 2)),
      );
    });
  });

  describe('single-flight: concurrent identical misses run the route once', () => {
    let h: ApiHarness;
    /** Statements the routes ran (the read-state readings, the cache's own, not counted). */
    let statements = 0;

    beforeAll(async () => {
      h = await harnessOf({
        readDb: (db: Db) =>
          db.withPlugin({
            transformQuery(args) {
              const text = db.getExecutor().compileQuery(args.node, args.queryId).sql;
              if (!text.includes('read_versions')) statements++;
              return args.node;
            },
            transformResult: async (args) => args.result,
          }),
      });
      await seedCachedRoutes(h);
    });
    afterAll(() => h?.close());

    it('100 concurrent requests of one uncached URL: one run of its statements, one body', async () => {
      const base = `/tokens-by-collection?creator=${CREATOR}&collection=Cats`;
      // What one run of the route costs, asked once on a URL of its own (after a first request: the
      // process's first one also reads what it keeps for the next ones).
      await cacheOf(h, `${base}&limit=2`);
      statements = 0;
      expect((await cacheOf(h, `${base}&limit=3`)).state).toBe('miss');
      const once = statements;
      expect(once).toBeGreaterThan(0);

      statements = 0;
      const counted = await cacheCounts(h, '/local/api/tokens-by-collection');
      await settled(h);
      const answers = await Promise.all(Array.from({ length: 100 }, () => h.get(`${base}&limit=4`)));
      expect(statements).toBe(once);
      expect(answers.every((a) => a.statusCode === 200)).toBe(true);
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect(answers.filter((a) => a.headers['x-mdq-cache'] === 'miss')).toHaveLength(1);
      // /metrics counts the answers as their headers say: the hit ratio an operator reads.
      const after = await cacheCounts(h, '/local/api/tokens-by-collection');
      expect({ hit: after.hit - counted.hit, miss: after.miss - counted.miss }).toEqual({ hit: 99, miss: 1 });
    });

    it('waiters of a miss that fails run the route themselves (and answer alike)', async () => {
      const url = `/tokens-by-collection?creator=${CREATOR}&collection=Nope`;
      await settled(h);
      const answers = await Promise.all(Array.from({ length: 5 }, () => h.get(url)));
      expect(answers.map((a) => a.statusCode)).toEqual([404, 404, 404, 404, 404]);
    });
  });

  describe("per-lootbox keys: a lootbox's purchase or reveal retires its own pages, not another's", () => {
    let h: ApiHarness;
    const DOGS = addr(0x300);
    // Asked by id and by pair: the tier pages, the revenue (asked by pair only) and the tokens.
    const pages = (id: number, name: string) => [
      `/lootbox?creator=${CREATOR}&collection=${name}`,
      `/rarities-by-lootbox?lootboxId=${id}`,
      `/lootbox-revenue?creator=${CREATOR}&collection=${name}&timeframe=all`,
      `/tokens-by-lootbox?lootboxId=${id}`,
      `/tokens-by-lootbox-creator?creator=${CREATOR}&collection=${name}`,
    ];
    const cats = pages(7, 'Cats');
    const dogs = pages(8, 'Dogs');

    beforeAll(async () => {
      // The revenue's window ends at the request and is kept until that second ends: a clock that
      // stands still keeps it across the test's requests, so only writes retire it.
      h = await harnessOf({ clock: () => new Date('2026-11-10T00:00:00Z') });
      await seedCachedRoutes(h);
      await h.fx.collection({ id: DOGS, creator: CREATOR, name: 'Dogs', lootboxId: 8 });
      await h.fx.lootbox({
        id: 8,
        creator: CREATOR,
        name: 'Dogs',
        collectionId: DOGS,
        mintStart: '2026-10-01T00:00:00Z',
        tiers: [{ name: 'Common', weight: '9', maxSupply: '90' }],
      });
    });
    afterAll(() => h?.close());

    it('a purchase of the Dogs lootbox retires its lootbox and revenue pages, and no Cats page', async () => {
      await warm(h, [...cats, ...dogs]);
      // The indexer's purchase: the purchase row (which the kept day sums follow) and the lootbox's counts.
      await h.test.db.transaction().execute(async (trx) => {
        await new Fixtures(trx).purchase({
          version: 20,
          lootboxId: 8,
          buyer: BUYER,
          amount: '100000000',
          at: '2026-11-01T00:00:00Z',
        });
        await trx.updateTable('lootboxes').set({ purchased: '1' }).where('lootbox_id', '=', 8).execute();
      });
      expect(await missed(h, cats)).toEqual([]);
      expect(await missed(h, dogs)).toEqual(dogs);
      expect((await cacheOf(h, dogs[2] ?? '')).body).toContain('"100000000"');
    });

    it('a reveal of the Cats lootbox (a tier minted) retires its tier pages, not its revenue nor any Dogs page', async () => {
      await h.test.db
        .insertInto('lootbox_tiers')
        .values({ lootbox_id: 7, tier_name: 'Common', position: 0, weight: '1', max_supply: '10' })
        .execute();
      await warm(h, [...cats, ...dogs]);
      await h.test.db.updateTable('lootbox_tiers').set({ minted: '1' }).where('lootbox_id', '=', 7).execute();
      expect(await missed(h, dogs)).toEqual([]);
      expect(await missed(h, cats)).toEqual([cats[0], cats[1]]);
    });

    it('a new lootbox taking the Dogs pair retires the pages asked by that pair, and not lootbox 8 by its id', async () => {
      await warm(h, [...cats, ...dogs]);
      await h.fx.lootbox({
        id: 9,
        creator: CREATOR,
        name: 'Dogs',
        collectionId: DOGS,
        mintStart: '2026-10-02T00:00:00Z',
        tiers: [{ name: 'Rare', weight: '1', maxSupply: '10' }],
      });
      expect(await missed(h, cats)).toEqual([]);
      expect(await missed(h, dogs)).toEqual([dogs[0], dogs[2], dogs[4]]);
      // Asked by pair, the newest lootbox of the pair: now 9, with its own tier.
      expect((await cacheOf(h, dogs[0] ?? '')).body).toContain('"Rare"');
    });

    it("a Dog minted from its lootbox retires the Dogs token pages; the collections' counts moving retire none", async () => {
      await warm(h, [...cats, ...dogs]);
      await h.test.db.transaction().execute(async (trx) => {
        await new Fixtures(trx).token({
          id: addr(0xd09),
          collectionId: DOGS,
          creator: CREATOR,
          collection: 'Dogs',
          name: 'Dog #9',
          lootboxId: 9,
        });
        // As a block does: every collection's counts move (an owner count, the supply).
        await trx.updateTable('collections').set({ owner_count: 3, current_supply: '2' }).execute();
      });
      expect(await missed(h, cats)).toEqual([]);
      // Lootbox 9 is the Dogs pair's newest; lootbox 8's tokens by id stand.
      expect(await missed(h, dogs)).toEqual([dogs[4]]);
      expect((await cacheOf(h, dogs[4] ?? '')).body).toContain('Dog #9');
    });

    it('a collection renamed retires the token pages that show it', async () => {
      await warm(h, [...cats, ...dogs]);
      await h.test.db
        .updateTable('collections')
        .set({ uri: 'https://example.test/cats' })
        .where('collection_id', '=', COLLECTION)
        .execute();
      // The tokens of both lootboxes show their collection's URI; its identity counter is global.
      expect(await missed(h, [...cats, ...dogs])).toEqual([cats[3], cats[4], dogs[3], dogs[4]]);
      expect((await cacheOf(h, cats[3] ?? '')).body).toContain('https://example.test/cats');
    });
  });
}
