import type { Db } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { createRedis, QUEUE_NAMES } from '@mdq/jobs';
import { type PrivateRedis, startPrivateRedis } from '@mdq/jobs/testing';
import { recordingLogger as logTo } from '@mdq/log';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerLogger } from '../src/logger';
import { SCHEDULES } from '../src/schedules';
import { startWorker } from '../src/start-worker';
import { eventually } from './wait';

/*
 * Issue #13 item 4: job schedulers live only in Redis. A Redis restarted without persistence comes
 * back empty; the worker must notice and re-create them. A private redis-server on a free port is
 * restarted here (never the shared one).
 */
let t: TestDatabase;
let db: Db;
let redis: PrivateRedis;

const redisUrl = () => redis.url;

async function schedulerIds(): Promise<string[]> {
  const connection = createRedis(redisUrl());
  const queue = new Queue(QUEUE_NAMES.aggregates, { connection, prefix: 'mdq' });
  try {
    return (await queue.getJobSchedulers()).map((s) => s.key).sort();
  } finally {
    await queue.close();
    await connection.quit();
  }
}

const expected = SCHEDULES.map((s) => s.id).sort();

function recordingLogger(): { logger: WorkerLogger; recreated: unknown[] } {
  const recreated: unknown[] = [];
  return {
    recreated,
    // Connection errors while Redis is down are expected here: only the re-creations are read.
    logger: logTo((line) => {
      if (line.level === 'warn' && line.msg === 'job schedulers re-created') recreated.push(line['reason']);
    }),
  };
}

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
  redis = await startPrivateRedis();
});

afterAll(async () => {
  await redis?.destroy();
  await t?.drop();
});

describe('job schedulers after Redis loses them', () => {
  it('are re-created when the worker reconnects to a restarted Redis', { timeout: 90_000 }, async () => {
    const { logger, recreated } = recordingLogger();
    // The periodic check is out of the way: only the reconnect can bring them back.
    const worker = await startWorker({ db, redisUrl: redisUrl(), logger, scheduleCheckMs: 3_600_000 });
    try {
      expect(await schedulerIds()).toEqual(expected);
      await redis.stop();
      await redis.start();
      // The restarted server is empty until the worker's connection is ready again and re-creates
      // every scheduler (the log line is written only for schedulers found missing).
      await eventually(async () => expect(await schedulerIds()).toEqual(expected), 60_000);
      expect(recreated).toContain('redis ready');
    } finally {
      await worker.close();
    }
  });

  it('are re-created by the periodic check when Redis is emptied under a live connection', async () => {
    const { logger, recreated } = recordingLogger();
    const worker = await startWorker({ db, redisUrl: redisUrl(), logger, scheduleCheckMs: 500 });
    try {
      expect(await schedulerIds()).toEqual(expected);
      const admin = createRedis(redisUrl());
      await admin.flushall();
      await admin.quit();
      await eventually(async () => expect(await schedulerIds()).toEqual(expected), 20_000);
      expect(recreated).toContain('periodic check');
    } finally {
      await worker.close();
    }
  });
});
