import { sql } from '@mdq/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREATOR, OWNER, seedCachedRoutes, TOKEN } from './support/cached-routes';
import { until } from './support/feed-consumers';
import { type ApiHarness, addr, createHarness, Fixtures } from './support/fixtures';

/*
 * /v1/graphql answers are cached as the pages' are, each under the counters of the tables its own
 * statement reads: a token's, a collection's and an owner's queries (the SDK's most used) key on
 * that token's collection, that collection, that owner's bucket. `x-mdq-cache` says whether the
 * statement ran (`miss`) or the answer came from the cache (`hit`).
 */

const OTHER = addr(0xc3);
const BUYER = addr(0xb7);
const DOGS = addr(0x200);
const DOG = addr(0x2001);

/** The shapes the ts-sdk sends (its getAccountOwnedTokens, getAccountTokensCount, ...), smaller. */
const QUERIES = {
  owned: (owner: string) => ({
    query: `query owned($owner: String) {
      current_token_ownerships_v2(where: {owner_address: {_eq: $owner}, amount: {_gt: 0}}) {
        token_data_id amount last_transaction_timestamp
        current_token_data { token_name current_collection { collection_name current_supply } }
      }
    }`,
    variables: { owner },
  }),
  count: (owner: string) => ({
    query: `query count($owner: String) {
      current_token_ownerships_v2_aggregate(where: {owner_address: {_eq: $owner}, amount: {_gt: 0}}) {
        aggregate { count }
      }
    }`,
    variables: { owner },
  }),
  token: (token: string) => ({
    query: `query token($token: String) {
      current_token_datas_v2(where: {token_data_id: {_eq: $token}}) {
        token_name last_transaction_timestamp current_collection { collection_name current_supply }
      }
    }`,
    variables: { token },
  }),
  activity: (token: string) => ({
    query: `query activity($token: String) {
      token_activities_v2(where: {token_data_id: {_eq: $token}}, order_by: {transaction_version: desc}) {
        transaction_version type from_address to_address
      }
    }`,
    variables: { token },
  }),
  collection: (name: string) => ({
    query: `query collection($creator: String, $name: String) {
      current_collections_v2(where: {creator_address: {_eq: $creator}, collection_name: {_eq: $name}}) {
        collection_id current_supply description
      }
    }`,
    variables: { creator: CREATOR, name },
  }),
};

type Body = { query: string; variables: Record<string, unknown> };
const NAMED: [string, Body][] = [
  ['owned OWNER', QUERIES.owned(OWNER)],
  ['owned OTHER', QUERIES.owned(OTHER)],
  ['owned BUYER', QUERIES.owned(BUYER)],
  ['count OWNER', QUERIES.count(OWNER)],
  ['count OTHER', QUERIES.count(OTHER)],
  ['count BUYER', QUERIES.count(BUYER)],
  ['token Cat', QUERIES.token(TOKEN)],
  ['token Dog', QUERIES.token(DOG)],
  ['activity Cat', QUERIES.activity(TOKEN)],
  ['activity Dog', QUERIES.activity(DOG)],
  ['collection Cats', QUERIES.collection('Cats')],
  ['collection Dogs', QUERIES.collection('Dogs')],
];

async function ask(h: ApiHarness, body: Body) {
  const response = await h.app.inject({
    method: 'POST',
    url: '/local/v1/graphql',
    headers: { 'x-api-key': h.key },
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.body).not.toContain('"errors"');
  return { state: String(response.headers['x-mdq-cache']), body: response.body };
}

/** Asks every query until it is a hit (the first answer may be a miss that stores it). */
async function warm(h: ApiHarness): Promise<void> {
  for (const [name, body] of NAMED) {
    await ask(h, body);
    expect((await ask(h, body)).state, name).toBe('hit');
  }
}

/** The queries whose next answer is a miss. */
async function missed(h: ApiHarness): Promise<string[]> {
  const out: string[] = [];
  for (const [name, body] of NAMED) if ((await ask(h, body)).state === 'miss') out.push(name);
  return out;
}

describe('/v1/graphql answers keyed by what each statement reads', () => {
  let h: ApiHarness;

  beforeAll(async () => {
    h = await createHarness();
    // The Cats, their Cat held by OWNER (seedCachedRoutes); the Dogs, their Dog held by OTHER.
    await seedCachedRoutes(h);
    await h.fx.collection({ id: DOGS, creator: CREATOR, name: 'Dogs' });
    await h.fx.token({ id: DOG, collectionId: DOGS, creator: CREATOR, collection: 'Dogs', name: 'Dog #1' });
    await h.fx.ownership({ tokenId: DOG, owner: OTHER, collectionId: DOGS });
    await h.fx.tokenActivity({ version: 2, kind: 'mint', tokenId: DOG, collectionId: DOGS, to: OTHER });
    const { rows } = await sql<{ bucket: number }>`
      SELECT hashtext(a) & 65535 AS bucket FROM unnest(${[OWNER, OTHER, BUYER]}::text[]) AS a`.execute(
      h.test.db,
    );
    expect(new Set(rows.map((r) => r.bucket)).size).toBe(3);
  });
  afterAll(() => h?.close());

  it('asks the same query twice for one statement, by POST and by GET alike', async () => {
    const body = QUERIES.token(DOG);
    const first = await ask(h, body);
    const again = await ask(h, body);
    expect(again).toEqual({ state: 'hit', body: first.body });
    const get = await h.app.inject({
      method: 'GET',
      url: `/local/v1/graphql?query=${encodeURIComponent(body.query)}&variables=${encodeURIComponent(JSON.stringify(body.variables))}`,
      headers: { 'x-api-key': h.key },
    });
    expect(get.headers['x-mdq-cache']).toBe('hit');
    expect(get.body).toBe(first.body);
  });

  it("a Dog passing from OTHER to BUYER retires their holdings and the Dog's activity, nothing of the Cats or OWNER", async () => {
    await warm(h);
    await h.test.db.transaction().execute(async (trx) => {
      const fx = new Fixtures(trx);
      await trx
        .updateTable('token_ownerships')
        .set({ amount: '0', last_transaction_version: 5 })
        .where('token_data_id', '=', DOG)
        .execute();
      await fx.ownership({ tokenId: DOG, owner: BUYER, collectionId: DOGS, version: 5 });
      await fx.tokenActivity({
        version: 5,
        kind: 'transfer',
        tokenId: DOG,
        collectionId: DOGS,
        from: OTHER,
        to: BUYER,
      });
    });
    expect(await missed(h)).toEqual([
      'owned OTHER',
      'owned BUYER',
      'count OTHER',
      'count BUYER',
      'activity Dog',
    ]);
    // Never stale: the answers after the write show it.
    expect((await ask(h, QUERIES.owned(BUYER))).body).toContain(DOG);
    expect((await ask(h, QUERIES.owned(OTHER))).body).not.toContain(DOG);
    expect(JSON.parse((await ask(h, QUERIES.count(BUYER))).body)).toEqual({
      data: { current_token_ownerships_v2_aggregate: { aggregate: { count: 1 } } },
    });
  });

  it("a mint in Dogs retires the Dogs queries and the holdings that show a collection's supply, no Cats query", async () => {
    await warm(h);
    await h.test.db.transaction().execute(async (trx) => {
      await new Fixtures(trx).token({
        id: addr(0x2002),
        collectionId: DOGS,
        creator: CREATOR,
        collection: 'Dogs',
        name: 'Dog #2',
        version: 6,
      });
      await trx
        .updateTable('collections')
        .set({ current_supply: '2', total_minted: '2', last_transaction_version: 6 })
        .where('collection_id', '=', DOGS)
        .execute();
    });
    // The holdings show each token's collection's supply: `collections` keys them on its global
    // counter (no collection scopes a wallet's tokens' collections).
    expect(await missed(h)).toEqual([
      'owned OWNER',
      'owned OTHER',
      'owned BUYER',
      'token Dog',
      'collection Dogs',
    ]);
    const [dogs] = JSON.parse((await ask(h, QUERIES.collection('Dogs'))).body).data.current_collections_v2;
    expect(dogs.current_supply).toBe(2);
  });

  it("a write to the Cat's row retires the queries that show it: its holder's, its own; no Dogs query", async () => {
    await warm(h);
    await h.test.db
      .updateTable('tokens')
      .set({ token_name: 'Cat #1 (renamed)' })
      .where('token_data_id', '=', TOKEN)
      .execute();
    expect(await missed(h)).toEqual(['owned OWNER', 'token Cat']);
    expect((await ask(h, QUERIES.token(TOKEN))).body).toContain('Cat #1 (renamed)');
  });

  it('a write to a table no query reads retires nothing', async () => {
    await warm(h);
    await h.fx.listing({
      id: 'd9',
      tokenId: DOG,
      tokenName: 'Dog #1',
      collectionId: DOGS,
      collection: 'Dogs',
      creator: CREATOR,
      seller: BUYER,
      price: '40',
      version: 7,
    });
    expect(await missed(h)).toEqual([]);
  });

  it('a collection asked by a pair no collection has yet answers it once one takes it', async () => {
    const birds = QUERIES.collection('Birds');
    await ask(h, birds);
    expect(JSON.parse((await ask(h, birds)).body)).toEqual({ data: { current_collections_v2: [] } });
    await h.fx.collection({ id: addr(0x300), creator: CREATOR, name: 'Birds', version: 8 });
    expect((await ask(h, birds)).body).toContain(addr(0x300));
  });

  it('TRUNCATE of the ownerships retires every holdings query', async () => {
    await warm(h);
    await sql`TRUNCATE token_ownerships`.execute(h.test.db);
    expect(await missed(h)).toEqual([
      'owned OWNER',
      'owned OTHER',
      'owned BUYER',
      'count OWNER',
      'count OTHER',
      'count BUYER',
    ]);
  });
});

describe('/v1/graphql answers with the read state pushed (LISTEN)', () => {
  let h: ApiHarness;
  const version = async () => {
    const { rows } = await sql<{ v: string }>`
      SELECT max(last_version)::text AS v FROM indexer_checkpoints`.execute(h.test.db);
    return Number(rows[0]?.v);
  };
  /** Until an answer carries the checkpoint at `at` (notifications arrive in commit order). */
  const heard = (at: number) =>
    until(`block ${at}`, async () => {
      const response = await h.app.inject({
        method: 'POST',
        url: '/local/v1/graphql',
        headers: { 'x-api-key': h.key },
        payload: QUERIES.collection('Cats'),
      });
      return response.headers['x-mdq-indexed-version'] === String(at);
    });

  beforeAll(async () => {
    // Readings trusted for a minute: only a notification retires one here.
    h = await createHarness({ pushedMaxStaleMs: 60_000 });
    await seedCachedRoutes(h);
    await h.fx.collection({ id: DOGS, creator: CREATOR, name: 'Dogs' });
    await h.fx.token({ id: DOG, collectionId: DOGS, creator: CREATOR, collection: 'Dogs', name: 'Dog #1' });
    await h.fx.ownership({ tokenId: DOG, owner: OTHER, collectionId: DOGS });
    await until('LISTEN', async () => h.app.readState.pushing);
  });
  afterAll(() => h?.close());

  it("a block in the Cats leaves the Dog's and OTHER's answers hits with no reading, and the Cat's shows it", async () => {
    const standing = [QUERIES.token(DOG), QUERIES.activity(DOG), QUERIES.owned(OTHER), QUERIES.count(OTHER)];
    const before = new Map<Body, string>();
    for (const body of [...standing, QUERIES.activity(TOKEN)]) before.set(body, (await ask(h, body)).body);
    // The block: the Cat moves from OWNER to BUYER, then the checkpoint.
    const at = (await version()) + 1;
    await h.test.db.transaction().execute(async (trx) => {
      const fx = new Fixtures(trx);
      await fx.tokenActivity({
        version: at,
        kind: 'transfer',
        tokenId: TOKEN,
        collectionId: null,
        from: OWNER,
        to: BUYER,
      });
      await trx.updateTable('indexer_checkpoints').set({ last_version: at }).execute();
    });
    await heard(at);
    const sent = h.app.readState.readings;
    // Longer than the source's 250 ms `recent()` age, as a busy machine's requests take: only an
    // announced change may send a reading now, not time.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const body of standing) {
      const again = await ask(h, body);
      expect(again.state, body.query.split('(')[0]).toBe('hit');
      expect(again.body).toBe(before.get(body));
    }
    expect(h.app.readState.readings).toBe(sent);
    // The Cat's activity, stored without its collection, counts for its token's: it changed.
    const cat = await ask(h, QUERIES.activity(TOKEN));
    expect(cat.state).toBe('miss');
    expect(cat.body).toContain(`"transaction_version" : ${at}`);
  });
});
