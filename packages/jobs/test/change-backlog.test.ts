import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChangeBacklog, createRedis, memoryChangeBacklog, redisChangeBacklog } from '../src/index';

const url = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const redis = createRedis(url);
const prefix = `mdq-test-${randomBytes(4).toString('hex')}`;

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe.each([
  ['redis', () => redisChangeBacklog(redis, prefix)],
  ['memory', () => memoryChangeBacklog()],
] as const)('change backlog (%s)', (_name, make: () => ChangeBacklog) => {
  it('keeps the first unprocessed change per collection until a run takes it', async () => {
    const backlog = make();
    expect(await backlog.summary()).toEqual({ pending: 0, oldestChangeAt: null });
    await backlog.mark(['0xa', '0xb'], 1_000);
    await backlog.mark(['0xa', '0xc'], 2_000);
    expect(await backlog.summary()).toEqual({ pending: 3, oldestChangeAt: 1_000 });
    expect(await backlog.take('0xa')).toBe(1_000);
    expect(await backlog.take('0xa')).toBeNull();
    expect(await backlog.summary()).toEqual({ pending: 2, oldestChangeAt: 1_000 });
    expect(await backlog.take('0xb')).toBe(1_000);
    expect(await backlog.summary()).toEqual({ pending: 1, oldestChangeAt: 2_000 });
    // A change after the take opens a new wait.
    await backlog.mark(['0xa'], 3_000);
    expect(await backlog.take('0xa')).toBe(3_000);
    expect(await backlog.take('0xc')).toBe(2_000);
    expect(await backlog.summary()).toEqual({ pending: 0, oldestChangeAt: null });
  });
});
