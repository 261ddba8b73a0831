import { type Db, sql } from '@mdq/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUYER, CACHED, COLLECTION, CREATOR, OWNER, seedCachedRoutes, TOKEN } from './support/cached-routes';
import { type ApiHarness, createHarness } from './support/fixtures';

/*
 * A miss costs its round trips more than its statements' work: each is a pooled connection, the
 * protocol's writes and reads on both sides, and a wait. A page's rows and total therefore come in
 * one statement (pagination.ts rowsWithTotal), and a route's budget here is what it may run on a
 * miss, counted as the statements that returned a result (the read state's reading aside: pushed in
 * production, polled in tests). A route over its budget fails; one under it should lower it. A page
 * of a lootbox's or a token's rows resolves it inside its statement, and looks it up only when the
 * page is empty, for the 404 (lib/resolve.ts).
 */
const BUDGET: Record<string, number> = {
  // Resolve the lootbox (its status moves with the clock), then the collection's facts.
  '/token-collection-by-lootbox-creator': 2,
  // Resolve the token (as the name's v1 token, then any standard), then its traits.
  '/token/traits': 2,
  // Listings and tokens, each its own ranked search.
  '/market/search': 2,
  // The analytics answers, on one connection (routes/collection.ts).
  // - trait floors: resolve the collection, check it exists, then its values with their counts and
  //   floors (the live total on each row) and their last sales (a second statement only for values
  //   no recent sale names);
  // - stats: resolve it, then its one-collection figures in one statement, then the floors, the
  //   floor at the window's start and the holder count the worker shares;
  // - history: resolve it, check it exists, then its sales, last earlier sale and snapshots in one.
  '/collection-trait-floors': 3,
  '/collection-stats': 5,
  '/collection-history': 3,
  // By id: check it exists, then both sides' traders in one statement.
  '/collection-top-traders': 2,
};

const URLS = [
  ...CACHED,
  `/collection-stats?collectionId=${COLLECTION}`,
  `/collection-history?creator=${CREATOR}&collection=Cats`,
  `/collection-top-traders?collectionId=${COLLECTION}&window=30d`,
];

describe('the statements a miss runs', () => {
  let h: ApiHarness;
  const ran: string[] = [];

  beforeAll(async () => {
    h = await createHarness({
      readDb: (db: Db) => {
        const executor = db.getExecutor();
        // A statement compiled (a total's cache key) is not run: only one that returns a result counts.
        const compiled = new Map<unknown, string>();
        return db.withPlugin({
          transformQuery(args) {
            compiled.set(args.queryId, executor.compileQuery(args.node, args.queryId).sql);
            return args.node;
          },
          transformResult: async (args) => {
            ran.push(compiled.get(args.queryId) ?? '');
            return args.result;
          },
        });
      },
    });
    await seedCachedRoutes(h);
    await h.fx.collectionOffer({ id: 'c1', collectionId: COLLECTION, buyer: BUYER, price: '70', version: 3 });
  });
  afterAll(() => h?.close());

  const statementsOf = async (path: string) => {
    ran.length = 0;
    const response = await h.get(path);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['x-mdq-cache'], path).toBe('miss');
    return { body: response.json(), statements: ran.splice(0).filter((s) => !s.includes('read_versions')) };
  };

  it.each(URLS)('%s', async (path) => {
    const { statements } = await statementsOf(path);
    expect(statements.length, statements.join('\n---\n')).toBeLessThanOrEqual(
      BUDGET[path.split('?')[0] ?? ''] ?? 1,
    );
  });

  it('a page past the end still says the total, from the same one statement', async () => {
    const { body, statements } = await statementsOf('/market/listing-cards?page=40&limit=7');
    expect(statements).toHaveLength(1);
    const active = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM listings WHERE status = 'active'`.execute(h.test.db);
    expect(body.data).toEqual([]);
    expect(body.pagination).toMatchObject({ total: active.rows[0]?.n, hasMore: false, nextCursor: null });
    expect(body.pagination.total).toBeGreaterThan(0);
  });

  it('a second page of the same filter at the same read version reads its rows only', async () => {
    const { body } = await statementsOf(`/market/user-activity?address=${OWNER}&limit=1`);
    const next = await statementsOf(`/market/user-activity?address=${OWNER}&limit=1&page=2`);
    expect(next.statements).toHaveLength(1);
    expect(next.statements[0]).not.toContain('mdq_page_total');
    expect(next.body.pagination.total).toBe(body.pagination.total);
  });

  it.each([
    ['/tokens-by-lootbox?lootboxId=99', 'LOOTBOX_NOT_FOUND', 'no lootbox 99'],
    [`/tokens-by-lootbox-creator?creator=${CREATOR}&collection=Dogs`, 'LOOTBOX_NOT_FOUND', "'Dogs'"],
    [`/token/activity?creator=${CREATOR}&collection=Cats&tokenName=Nobody`, 'TOKEN_NOT_FOUND', "'Nobody'"],
    [`/market/token-history-by-tokenId?tokenId=${CREATOR}`, 'TOKEN_NOT_FOUND', CREATOR],
  ])('%s: a subject resolved inside the page is still a 404 naming it', async (path, code, named) => {
    const response = await h.get(path);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code });
    expect(response.json().message).toContain(named);
  });

  it.each([
    '/tokens-by-lootbox?lootboxId=7&page=99',
    `/tokens-by-lootbox-creator?creator=${CREATOR}&collection=Cats&page=99`,
    `/token/activity?creator=${CREATOR}&collection=Cats&tokenName=${encodeURIComponent('Cat #1')}&page=99`,
    `/market/token-history-by-tokenId?tokenId=${TOKEN}&page=99`,
  ])('%s: a known subject past its last page is an empty page', async (path) => {
    const response = await h.get(path);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual([]);
    expect(response.json().pagination.total).toBeGreaterThan(0);
  });
});
