import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { bullmqNotifier, createRedis, QUEUE_NAMES, redisAnswers } from '../src/index';

const url = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

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
});
