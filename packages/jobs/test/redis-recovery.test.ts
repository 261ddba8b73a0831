import { once } from 'node:events';
import { createFailureLog } from '@mdq/log';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, dedupedRedisSink, redisAnswers, reportErrors } from '../src/index';
import { type PrivateRedis, startPrivateRedis } from '../src/testing';

/*
 * An outage's repeated connection errors are counted and written as one line at the end of a
 * window. That window used to end whenever it ended, after a SIGTERM too, where the count read as an
 * error of the shutdown. The count is written when the connections are ready again.
 */
let redis: PrivateRedis;
beforeAll(async () => {
  redis = await startPrivateRedis();
});
afterAll(async () => {
  await redis?.destroy();
});

describe('a Redis outage in the log', () => {
  it('writes the count of its repeated errors once the connections recover', {
    timeout: 60_000,
  }, async () => {
    const lines: { reason: string; count: number }[] = [];
    // A window far longer than the test: only the recovery can write the count.
    const sink = dedupedRedisSink((failure) => lines.push(failure), createFailureLog({ windowMs: 600_000 }));
    const connection = createRedis(redis.url, sink);
    // A BullMQ Worker duplicates its connection for blocking commands: both must recover.
    const worker = reportErrors(sink, new Worker('recovery', async () => undefined, { connection }));
    await worker.waitUntilReady();
    try {
      await redis.stop();
      // Reconnect attempts every 2 s at most: several refusals, each kind of failure one line so far.
      const refused = () => lines.filter((line) => /ECONNREFUSED/.test(line.reason));
      await waitFor(() => refused().length === 1, 'the first refusal');
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(refused()).toEqual([expect.objectContaining({ count: 1 })]);
      await redis.start();
      await waitFor(() => refused().length === 2, 'the count written on recovery');
      expect(refused()[1]?.count).toBeGreaterThan(1);
      // Commands work again on the recovered connection.
      const queue = new Queue('recovery', { connection });
      const completed = once(worker, 'completed');
      await queue.add('ping', {});
      await completed;
      await queue.close();
    } finally {
      // A Worker closes only once Redis answers.
      if (!(await redisAnswers(redis.url))) await redis.start();
      await worker.close();
      await connection.quit();
    }
  });
});

async function waitFor(check: () => boolean, what: string): Promise<void> {
  const until = Date.now() + 45_000;
  while (!check()) {
    if (Date.now() > until) throw new Error(`waited 45 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
