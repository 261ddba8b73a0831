import { sql } from '@mdq/db';
import { JOB_POLICIES, QUEUE_NAMES } from '@mdq/jobs';
import { recordingLogger } from '@mdq/log';
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { WorkerLogger } from '../src/logger';
import { startWorker } from '../src/start-worker';
import { useBullmqTest } from './bullmq-test';
import { addr, insertCollection, insertToken, insertTraits } from './helpers';
import { eventually } from './wait';

/*
 * Both runtimes retry with the one policy in @mdq/jobs: with the rarity table gone (a real database
 * fault, no mock), a collection-changed job is attempted exactly `attempts` times in BullMQ and in
 * the in-process runner, then given up with a log line.
 */
const setup = useBullmqTest('retry');

describe('retries follow the declared job policy in both runtimes', () => {
  it('gives a failing collection-changed job exactly its attempts', { timeout: 120_000 }, async () => {
    const { db, url, prefix, redis } = setup;
    const policy = JOB_POLICIES[QUEUE_NAMES.collectionChanged];
    const id = addr(0x4242);
    await insertCollection(db, id);
    await insertToken(db, addr(0x424201), id);
    await insertTraits(db, addr(0x424201), id, { kind: 'only' });
    await sql`ALTER TABLE token_rarity RENAME TO token_rarity_away`.execute(db);
    const failures: Record<string, unknown>[] = [];
    const logger: WorkerLogger = recordingLogger(({ level, msg, ...fields }) => {
      if (level === 'error') failures.push({ message: msg, ...fields });
    });
    const common = {
      db,
      logger,
      schedules: false,
      collectionChangedDelayMs: 0,
      rankingsRefreshWindowMs: 60_000,
    };
    const bullmq = await startWorker({ ...common, redisUrl: url, prefix });
    const inProcess = await startWorker({ ...common, redisUrl: null });
    try {
      await bullmq.notifier.collectionsChanged([id], 1);
      await inProcess.notifier.collectionsChanged([id], 1);
      const queue = new Queue(QUEUE_NAMES.collectionChanged, { connection: redis, prefix });
      await eventually(async () => {
        const failed = await queue.getJobs(['failed']);
        expect(failed.map((j) => j.attemptsMade)).toEqual([policy.attempts]);
        expect(failures.filter((f) => f['job'] === `collection:${id}`).map((f) => f['attempts'])).toEqual([
          policy.attempts,
        ]);
      }, 90_000);
      // BullMQ reports every failed attempt; the last one is the give-up.
      expect(failures.filter((f) => f['queue'] === QUEUE_NAMES.collectionChanged).length).toBe(
        policy.attempts,
      );
      await queue.close();
    } finally {
      await sql`ALTER TABLE token_rarity_away RENAME TO token_rarity`.execute(db);
      await bullmq.close();
      await inProcess.close();
    }
  });
});
