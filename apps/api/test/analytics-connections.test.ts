import { poolOf } from '@mdq/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTION, CREATOR, seedCachedRoutes } from './support/cached-routes';
import { type ApiHarness, createHarness } from './support/fixtures';

/*
 * An analytics answer runs its statements on one pooled connection (routes/collection.ts
 * onOneConnection): sent at once, collection-stats took nine of the pool's connections per request,
 * and a hundred clients queued enough statements for the load shedding to refuse them. Counted here
 * by the pool's checkouts during each request (a miss: every URL is asked once): the answer's one,
 * and the read state's reading, which the response cache takes before the route runs.
 */
describe('an analytics answer holds one pooled connection', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await createHarness();
    await seedCachedRoutes(h);
    // The key's first use reads it from the database (then it is cached): not the answer's.
    expect((await h.get('/rankings/recent-added')).statusCode).toBe(200);
  });
  afterAll(() => h?.close());

  const pair = `creator=${CREATOR}&collection=Cats`;
  it.each([
    `/collection-stats?collectionId=${COLLECTION}&window=7d`,
    `/collection-stats?${pair}&window=all&includeFlagged=true`,
    `/collection-history?collectionId=${COLLECTION}&interval=1h`,
    `/collection-trait-floors?${pair}`,
    `/collection-top-traders?collectionId=${COLLECTION}&window=30d`,
    '/collection-stats?lootboxId=7',
  ])('%s', async (path) => {
    const pool = poolOf(h.test.db);
    let checkouts = 0;
    const count = () => {
      checkouts++;
    };
    pool.on('acquire', count);
    try {
      const response = await h.get(path);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['x-mdq-cache']).toBe('miss');
    } finally {
      pool.off('acquire', count);
    }
    expect(checkouts).toBeLessThanOrEqual(2);
  });
});
