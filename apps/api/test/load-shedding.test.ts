import { OVERLOAD_DEFAULTS } from '@mdq/config';
import { createApiKey, createDb, type Db, poolOf } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

/*
 * Overload driven deterministically, never by timing: the read pool's connections are held, so the
 * requests admitted meanwhile wait in its queue; once the queue is at the limit every other request
 * must be refused at once, while /health still answers and the held requests finish when the
 * connections come back.
 */
const RETRY_AFTER = 7;
/** Queries waiting for a read connection at which requests are refused. */
const LIMIT = 3;
const noShedding = { ...OVERLOAD_DEFAULTS, maxEventLoopDelayMs: 0, maxHeapMb: 0, maxDbWaiting: 0 };

/** Polls `check` for up to 30 s of wall clock (a count of polls stretches without bound on a loaded machine). */
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

function expectRefused(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe(String(RETRY_AFTER));
  expect(res.json()).toMatchObject({
    statusCode: 503,
    error: 'Service Unavailable',
    code: 'SERVICE_UNAVAILABLE',
  });
}

describe('API load shedding', () => {
  let test: TestDatabase;
  let key: string;
  const dbs: Db[] = [];
  let app: FastifyInstance | undefined;

  beforeAll(async () => {
    test = await createTestDatabase();
    key = (await createApiKey(test.db, { name: 'overload' })).key;
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    for (const db of dbs.splice(0)) await db.destroy();
  });
  afterAll(async () => {
    await test.drop();
  });

  const open = (options: Parameters<typeof createDb>[1]) => {
    const db = createDb(test.url, options);
    dbs.push(db);
    return db;
  };
  const ranking = () =>
    app!.inject({ url: '/local/api/rankings/recent-added', headers: { 'x-api-key': key } });

  it('refuses what would queue behind a full pool, keeps /health, and serves again once it drains', async () => {
    const readDb = open({ max: 2 });
    app = await buildApp({
      db: open({ max: 4 }),
      readDb,
      network: 'local',
      cacheEntries: 0,
      overload: { ...noShedding, maxDbWaiting: LIMIT, retryAfterSeconds: RETRY_AFTER },
    });
    expect((await ranking()).statusCode).toBe(200);

    // Both read connections taken: what needs one now waits in the pool's queue.
    const pool = poolOf(readDb);
    const held = [await pool.connect(), await pool.connect()];
    // Requests admitted one after the other until the queue is at the limit (each /ready reading is
    // one query in the queue). Counted as the queue grows, not to an exact number: on a loaded
    // machine another reading of the app's can be waiting too, and then fewer are admitted.
    const admitted: Promise<{ statusCode: number }>[] = [];
    try {
      while (pool.waitingCount < LIMIT) {
        const before = pool.waitingCount;
        const request = app.inject({ url: '/ready' });
        let answered = false;
        void request.then(() => {
          answered = true;
        });
        await until(`a query waiting beyond ${before}`, () => pool.waitingCount > before || answered);
        if (!answered) admitted.push(request);
      }
      expect(admitted.length).toBeGreaterThan(0);
      // The queue is at the limit: everything else is refused at once (these resolve while the
      // connections are still held, so none of them waited for one).
      const refused = await Promise.all([ranking(), ranking(), app.inject({ url: '/ready' })]);
      for (const res of refused) expectRefused(res);
      expect(refused[0]!.json()).toMatchObject({
        message: `the database is busy; retry after ${RETRY_AFTER} s`,
      });
      expect(pool.waitingCount).toBeGreaterThanOrEqual(LIMIT);
      // Liveness and metrics are never shed, and never wait in the full queue: with the last
      // reading older than the read-state source keeps one (250 ms), the lag gauges of /metrics
      // answer from it (a scrape once waited here until the connections came back).
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/metrics' })).statusCode).toBe(200);
    } finally {
      for (const client of held) client.release();
    }
    // The admitted requests complete, and new ones are served again.
    for (const res of await Promise.all(admitted)) expect(res.statusCode).toBe(200);
    expect((await ranking()).statusCode).toBe(200);
  });

  it('ends a statement past the statement timeout with a 503 and retry-after', async () => {
    app = await buildApp({
      db: open({ max: 2 }),
      readDb: open({ max: 2, statementTimeoutMs: 300 }),
      network: 'local',
      cacheEntries: 0,
      overload: { ...noShedding, retryAfterSeconds: RETRY_AFTER },
    });
    expect((await ranking()).statusCode).toBe(200);
    // Another session holds a lock every keyed request's read-state statement needs.
    const locker = new pg.Client({ connectionString: test.url });
    await locker.connect();
    try {
      await locker.query('BEGIN; LOCK TABLE lootboxes IN ACCESS EXCLUSIVE MODE');
      const res = await ranking();
      expectRefused(res);
      expect(res.json()).toMatchObject({ message: 'the database took too long to answer; retry shortly' });
      expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
      await locker.query('ROLLBACK');
      expect((await ranking()).statusCode).toBe(200);
    } finally {
      await locker.end();
    }
  });

  it('refuses requests while the event loop is blocked and recovers after', async () => {
    app = await buildApp({
      db: open({ max: 2 }),
      network: 'local',
      cacheEntries: 0,
      overload: { ...noShedding, maxEventLoopDelayMs: 100, retryAfterSeconds: RETRY_AFTER },
    });
    await until('a first answer', async () => (await ranking()).statusCode === 200);
    // The injected block: two seconds of synchronous work, as a runaway computation would do.
    const end = Date.now() + 2000;
    while (Date.now() < end) {
      /* busy */
    }
    let refusal: Awaited<ReturnType<typeof ranking>> | undefined;
    await until('a refusal after the block', async () => {
      const res = await ranking();
      if (res.statusCode === 503) refusal = res;
      expect((await app!.inject({ url: '/health' })).statusCode).toBe(200);
      return refusal !== undefined;
    });
    expectRefused(refusal!);
    expect(refusal!.json()).toMatchObject({ message: `the API is overloaded; retry after ${RETRY_AFTER} s` });
    await until('answers again', async () => (await ranking()).statusCode === 200);
  });

  it('refuses requests past the heap limit, in the error envelope', async () => {
    app = await buildApp({
      db: open({ max: 2 }),
      network: 'local',
      overload: { ...noShedding, maxHeapMb: 1, retryAfterSeconds: RETRY_AFTER },
    });
    let refusal: Awaited<ReturnType<typeof ranking>> | undefined;
    await until('a refusal', async () => {
      const res = await ranking();
      if (res.statusCode === 503) refusal = res;
      return refusal !== undefined;
    });
    expectRefused(refusal!);
    expect(refusal!.json()).toMatchObject({
      message: `the API is short of memory; retry after ${RETRY_AFTER} s`,
    });
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
  });
});
