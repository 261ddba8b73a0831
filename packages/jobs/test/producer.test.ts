import { randomBytes } from 'node:crypto';
import { type Job, Queue, Worker } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import {
  bullmqNotifier,
  type CollectionChangedPayload,
  createRedis,
  QUEUE_NAMES,
  redisAnswers,
  redisChangeBacklog,
} from '../src/index';
import { requireTestRedis } from '../src/testing';

const url = await requireTestRedis();

describe('collection-changed producer', () => {
  const redis = createRedis(url);
  const prefix = `mdq-test-${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('probes Redis', async () => {
    expect(await redisAnswers(url)).toBe(true);
    expect(await redisAnswers('redis://127.0.0.1:1', 200)).toBe(false);
  });

  it('deduplicates jobs per collection while they wait', async () => {
    const notifier = bullmqNotifier(redis, { prefix, windowMs: 60_000 });
    await notifier.collectionsChanged(['0xa', '0xb'], 10);
    await notifier.collectionsChanged(['0xa'], 11);
    const queue = new Queue(QUEUE_NAMES.collectionChanged, { connection: redis, prefix });
    const jobs = await queue.getJobs(['delayed', 'waiting']);
    expect(jobs.map((j) => j.data.collectionId).sort()).toEqual(['0xa', '0xb']);
    await queue.close();
    await notifier.close();
  });

  it('a change while the job waits joins it without moving it (no starvation)', async () => {
    const notifier = bullmqNotifier(redis, { prefix, windowMs: 60_000 });
    const queue = new Queue<CollectionChangedPayload>(QUEUE_NAMES.collectionChanged, {
      connection: redis,
      prefix,
    });
    await notifier.collectionsChanged(['0xhot'], 1);
    const waiting = async () =>
      (await queue.getJobs(['delayed', 'waiting'])).filter((j) => j.data.collectionId === '0xhot');
    const [first] = await waiting();
    if (!first) throw new Error('no job');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await notifier.collectionsChanged(['0xhot'], 2);
    await notifier.collectionsChanged(['0xhot'], 3);
    const after = await waiting();
    expect(after.map((j) => [j.id, j.timestamp + (j.opts.delay ?? 0), j.data.version])).toEqual([
      [first.id, first.timestamp + (first.opts.delay ?? 0), 1],
    ]);
    // The backlog holds the first change, for the worker's lag report.
    expect(await redisChangeBacklog(redis, prefix).take('0xhot')).toBe(first.data.changedAt);
    await queue.close();
    await notifier.close();
  });

  it('changes while the job runs yield exactly one follow-up run, with the latest change', async () => {
    const own = `${prefix}-run`;
    const notifier = bullmqNotifier(redis, { prefix: own, windowMs: 50 });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen: number[] = [];
    const workerConnection = createRedis(url);
    let started: () => void = () => {};
    const firstStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const worker = new Worker<CollectionChangedPayload>(
      QUEUE_NAMES.collectionChanged,
      async (job: Job<CollectionChangedPayload>) => {
        seen.push(job.data.version);
        started();
        await held;
      },
      { connection: workerConnection, prefix: own, concurrency: 4 },
    );
    await notifier.collectionsChanged(['0xrun'], 1);
    await firstStarted;
    for (let version = 2; version <= 6; version++) await notifier.collectionsChanged(['0xrun'], version);
    release();
    const queue = new Queue(QUEUE_NAMES.collectionChanged, { connection: redis, prefix: own });
    const deadline = Date.now() + 20_000;
    while ((await queue.getJobCounts('completed')).completed !== 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Nothing else queued behind it.
    expect(await queue.getJobCounts('completed', 'delayed', 'waiting', 'active')).toEqual({
      completed: 2,
      delayed: 0,
      waiting: 0,
      active: 0,
    });
    expect(seen).toEqual([1, 6]);
    await worker.close();
    await workerConnection.quit();
    await queue.close();
    await notifier.close();
    const keys = await redis.keys(`${own}:*`);
    if (keys.length > 0) await redis.del(...keys);
  });
});
