import { createApiKey, createDb } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

/*
 * The database's own server drops the API's connections (what a restart or failover does: 57P01
 * to every session). The process must live on and answer 503 with the envelope, then 200 again.
 * The machine's Postgres is shared, so only this test database's sessions are terminated.
 */
describe('API while its database connections are terminated', () => {
  let test: TestDatabase;
  let app: FastifyInstance;
  let key: string;
  const crashes: unknown[] = [];
  const onCrash = (error: unknown) => crashes.push(error);

  beforeAll(async () => {
    test = await createTestDatabase();
    key = (await createApiKey(test.db, { name: 'outage' })).key;
    app = await buildApp({ db: createDb(test.url, { max: 4 }), network: 'local' });
    process.on('uncaughtException', onCrash);
  });
  afterAll(async () => {
    process.off('uncaughtException', onCrash);
    await app.close();
    await test.drop();
  });

  const terminate = async () => {
    const admin = new pg.Client({ connectionString: test.url });
    await admin.connect();
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    await admin.end();
  };

  const recovers = async (get: () => Promise<{ statusCode: number }>) => {
    for (let attempt = 0; attempt < 50; attempt++) {
      if ((await get()).statusCode === 200) return true;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return false;
  };

  it('answers 503 with the envelope or 200, never crashes, and serves again', async () => {
    const get = () => app.inject({ url: '/local/api/rankings/recent-added', headers: { 'x-api-key': key } });
    expect((await get()).statusCode).toBe(200);
    const statuses = new Set<number>();
    for (let round = 0; round < 5; round++) {
      // Requests in flight while every session of the database is terminated.
      const inFlight = Array.from({ length: 8 }, () => get());
      await terminate();
      for (const res of await Promise.all(inFlight)) {
        statuses.add(res.statusCode);
        if (res.statusCode === 503)
          expect(res.json()).toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE' });
      }
    }
    expect([...statuses].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    // A request that starts in the instant after the last termination can still check out a pooled
    // connection whose server is gone (pg learns of it only when the socket closes): that one is a
    // 503 too. What matters is that the API heals on its own, with no restart.
    expect(await recovers(get)).toBe(true);
    expect(crashes).toEqual([]);
  });
});
