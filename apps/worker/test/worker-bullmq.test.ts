import { readRanking } from '@mdq/db/worker';
import { QUEUE_NAMES } from '@mdq/jobs';
import { recordingLogger } from '@mdq/log';
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { nextRun, SCHEDULES } from '../src/schedules';
import { startWorker } from '../src/start-worker';
import { useBullmqTest } from './bullmq-test';
import { addr, insertCollection, insertSale, insertToken, insertTraits } from './helpers';
import { eventually } from './wait';

const setup = useBullmqTest('worker-test');

const start = () =>
  startWorker({
    db: setup.db,
    redisUrl: setup.url,
    prefix: setup.prefix,
    logger: recordingLogger((line) => {
      if (line.level === 'error') console.error(line.msg, line);
    }),
    collectionChangedDelayMs: 0,
    rankingsRefreshWindowMs: 250,
    shutdownGraceMs: 5_000,
    uri: { ipfsGateways: [], arweaveGateway: 'http://127.0.0.1:1/' },
  });

describe('worker on BullMQ', () => {
  it('has each job scheduler exactly once after two starts', async () => {
    const { redis, prefix } = setup;
    const first = await start();
    await first.close();
    const before = Date.now();
    const second = await start();
    const after = Date.now();
    const queue = new Queue(QUEUE_NAMES.aggregates, { connection: redis, prefix });
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.map((s) => s.key).sort()).toEqual(SCHEDULES.map((s) => s.id).sort());
    expect(await queue.getJobSchedulersCount()).toBe(SCHEDULES.length);
    expect(schedulers.find((s) => s.key === 'collection-snapshots')?.pattern).toBe('0 * * * *');
    // Every declared pattern is what BullMQ runs, and BullMQ's next instant is the one the
    // in-process clock computes from the same pattern (at some moment during the upsert).
    for (const declared of SCHEDULES) {
      const stored = schedulers.find((s) => s.key === declared.id);
      expect([declared.id, stored?.pattern, stored?.tz]).toEqual([declared.id, declared.pattern, 'UTC']);
      expect([nextRun(declared, before), nextRun(declared, after)]).toContain(stored?.next);
    }
    await queue.close();
    await second.close();
  });

  it('a collection-changed job refreshes rarity and the trending snapshot', async () => {
    const { db } = setup;
    const worker = await start();
    expect(worker.mode).toBe('bullmq');
    const id = addr(0x7777);
    await insertCollection(db, id);
    await insertSale(db, { collectionId: id, price: '42', buyer: addr(0xb1), at: new Date() });
    for (const [n, color] of [
      [1, 'red'],
      [2, 'blue'],
      [3, 'blue'],
    ] as const) {
      await insertToken(db, addr(0x7700 + n), id);
      await insertTraits(db, addr(0x7700 + n), id, { color });
    }
    expect(await readRanking(db, 'trending')).toEqual([]);
    await worker.notifier.collectionsChanged([id], 123);
    await eventually(async () => {
      const trending = await readRanking(db, 'trending');
      expect(trending.map((e) => e.collectionId)).toEqual([id]);
      expect(trending[0]?.metrics).toMatchObject({ volume: '42', sales: 1 });
    });
    const rarity = await db
      .selectFrom('token_rarity')
      .select(['token_data_id', 'rank'])
      .orderBy('rank')
      .execute();
    expect(rarity).toEqual([
      { token_data_id: addr(0x7701), rank: 1 },
      { token_data_id: addr(0x7702), rank: 2 },
      { token_data_id: addr(0x7703), rank: 2 },
    ]);
    await worker.close();
  });
});
