import { randomBytes } from 'node:crypto';
import type { Db } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { createRedis, DEFAULT_COLLECTION_CHANGED_WINDOW_MS, QUEUE_NAMES } from '@mdq/jobs';
import { recordingLogger } from '@mdq/log';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerLogger } from '../src/logger';
import { startWorker, type WorkerHandle } from '../src/start-worker';
import { addr, insertCollection, insertToken, insertTraits } from './helpers';
import { eventually } from './wait';

/*
 * Issue #21: a collection that changes more often than the window must still be recomputed, each
 * change within the documented maximum wait (the window, DEFAULT_COLLECTION_CHANGED_WINDOW_MS), in
 * both runtimes; a burst must still cost one recompute per window. Waits are checked on recorded
 * timestamps (when the test made each change, when the worker started each run) against the
 * documented bound plus a generous margin for a loaded machine — a starved collection waits for
 * the whole minute, far past it.
 */
const url = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const MAX_WAIT_MS = DEFAULT_COLLECTION_CHANGED_WINDOW_MS;
const MARGIN_MS = 10_000;
const redis = createRedis(url);
const prefixes: string[] = [];
let t: TestDatabase;
let db: Db;

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
});

afterAll(async () => {
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
  await t.drop();
});

type Mode = 'bullmq' | 'in-process';

interface Run {
  startedAt: number;
  firstChangeAt: number;
}

/** A collection with a few traited tokens, so each recompute does real rarity work. */
async function seedCollection(n: number): Promise<string> {
  const id = addr(0x5100 + n);
  await insertCollection(db, id);
  for (let i = 1; i <= 6; i++) {
    const token = addr(0x510000 + n * 100 + i);
    await insertToken(db, token, id);
    await insertTraits(db, token, id, { color: i % 3 === 0 ? 'gold' : 'grey', size: String(i % 2) });
  }
  return id;
}

/** Starts a worker in `mode` whose recomputes of `collectionId` are recorded from its log lines. */
async function startRecording(
  mode: Mode,
  collectionId: string,
  windowMs?: number,
): Promise<{ worker: WorkerHandle; runs: Run[]; prefix: string }> {
  const runs: Run[] = [];
  const prefix = `mdq-window-${randomBytes(4).toString('hex')}`;
  prefixes.push(prefix);
  const logger: WorkerLogger = recordingLogger((line) => {
    if (line.msg === 'collection recomputed' && line['collectionId'] === collectionId) {
      runs.push({ startedAt: Number(line['startedAt']), firstChangeAt: Number(line['firstChangeAt']) });
    }
    if (line.level === 'error') console.error(mode, line.msg, line);
  });
  const worker = await startWorker({
    db,
    redisUrl: mode === 'bullmq' ? url : null,
    prefix,
    logger,
    schedules: false,
    ...(windowMs === undefined ? {} : { collectionChangedDelayMs: windowMs }),
    rankingsRefreshWindowMs: 5_000,
    uri: { ipfsGateways: [], arweaveGateway: 'http://127.0.0.1:1/' },
  });
  expect(worker.mode).toBe(mode);
  return { worker, runs, prefix };
}

/** The first run that started at or after `at`. */
const runAfter = (runs: readonly Run[], at: number) => runs.find((r) => r.startedAt >= at);

async function completedJobs(prefix: string): Promise<number> {
  const queue = new Queue(QUEUE_NAMES.collectionChanged, { connection: redis, prefix });
  try {
    return (await queue.getJobCounts('completed')).completed ?? 0;
  } finally {
    await queue.close();
  }
}

/** Changes every 200 ms for 60 s, sampling the worker's change lag every second. */
async function hotCollection(mode: Mode, n: number) {
  const collectionId = await seedCollection(n);
  const { worker, runs, prefix } = await startRecording(mode, collectionId);
  const changes: number[] = [];
  const lagSamples: (number | null)[] = [];
  const end = Date.now() + 60_000;
  let version = 1;
  let nextSample = Date.now() + 1_000;
  while (Date.now() < end) {
    changes.push(Date.now());
    await worker.notifier.collectionsChanged([collectionId], version++);
    if (Date.now() >= nextSample) {
      lagSamples.push((await worker.changeLag()).oldestChangeAgeMs);
      nextSample += 1_000;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const last = changes.at(-1) ?? 0;
  await eventually(async () => expect(runAfter(runs, last)).toBeDefined(), 60_000);
  await eventually(async () =>
    expect(await worker.changeLag()).toEqual({ pending: 0, oldestChangeAgeMs: null }),
  );
  if (mode === 'bullmq') await eventually(async () => expect(await completedJobs(prefix)).toBe(runs.length));
  await worker.close();
  return { mode, changes, runs, lagSamples };
}

describe('collection-changed work has a bounded wait', () => {
  it('a collection changed every 200 ms for 60 s is recomputed throughout, each change within the max wait', {
    timeout: 240_000,
  }, async () => {
    // Both runtimes at once: the minute the issue asks for is spent once.
    const results = await Promise.all([hotCollection('bullmq', 1), hotCollection('in-process', 2)]);
    for (const { mode, changes, runs, lagSamples } of results) {
      const first = changes[0] ?? 0;
      const last = changes.at(-1) ?? 0;
      expect(changes.length, mode).toBeGreaterThan(100);
      // Every change is picked up by a recompute that starts within the max wait.
      const late = changes
        .map((at) => ({ at, waited: (runAfter(runs, at)?.startedAt ?? Number.POSITIVE_INFINITY) - at }))
        .filter((c) => c.waited > MAX_WAIT_MS + MARGIN_MS);
      expect(late, mode).toEqual([]);
      // Repeatedly during the burst, not only after it.
      const during = runs.filter((r) => r.startedAt < last).length;
      expect(during, mode).toBeGreaterThanOrEqual(Math.floor((last - first) / (MAX_WAIT_MS + MARGIN_MS)));
      expect(during, mode).toBeGreaterThanOrEqual(2);
      // Never more than one recompute per window.
      expect(runs.length, mode).toBeLessThanOrEqual(Math.floor((last - first) / MAX_WAIT_MS) + 2);
      // The worker's own account of the first unprocessed change agrees with the test's.
      for (const run of runs) {
        expect(run.firstChangeAt, mode).toBeLessThanOrEqual(run.startedAt);
        expect(run.startedAt - run.firstChangeAt, mode).toBeLessThanOrEqual(MAX_WAIT_MS + MARGIN_MS);
      }
      // And so does the lag it exposes for /metrics.
      expect(lagSamples.length, mode).toBeGreaterThan(30);
      for (const lag of lagSamples) expect(lag ?? 0, mode).toBeLessThanOrEqual(MAX_WAIT_MS + MARGIN_MS);
    }
  });

  it('a burst of many changes costs one recompute per window', { timeout: 120_000 }, async () => {
    const windowMs = 5_000;
    const burst = async (mode: Mode, n: number) => {
      const collectionId = await seedCollection(n);
      const { worker, runs, prefix } = await startRecording(mode, collectionId, windowMs);
      const changes: number[] = [];
      for (let i = 0; i < 300; i++) {
        changes.push(Date.now());
        await worker.notifier.collectionsChanged([collectionId, collectionId], i);
      }
      const last = changes.at(-1) ?? 0;
      await eventually(async () => expect(runAfter(runs, last)).toBeDefined(), 60_000);
      await eventually(async () => expect((await worker.changeLag()).pending).toBe(0));
      // Quiet for a further window: nothing else may run.
      const settled = runs.length;
      await new Promise((resolve) => setTimeout(resolve, windowMs + 1_000));
      const jobs = mode === 'bullmq' ? await completedJobs(prefix) : runs.length;
      await worker.close();
      return { mode, changes, runs, settled, jobs };
    };
    const results = await Promise.all([burst('bullmq', 3), burst('in-process', 4)]);
    for (const { mode, changes, runs, settled, jobs } of results) {
      const span = (changes.at(-1) ?? 0) - (changes[0] ?? 0);
      expect(runs.length, mode).toBe(settled);
      expect(jobs, mode).toBe(runs.length);
      expect(runs.length, mode).toBeGreaterThanOrEqual(1);
      // 300 changes (600 notifications) in one window on any sane machine: exactly one recompute.
      expect(runs.length, mode).toBeLessThanOrEqual(Math.floor(span / windowMs) + 1);
    }
  });
});
