import { randomBytes } from 'node:crypto';
import { readRanking, sql } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { createDecoder, fullnodeSource, runIndexer } from '@mdq/indexer';
import { createRedis } from '@mdq/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type WorkerHandle } from '../src/index';
import { eventually, silentLogger } from './wait';

/*
 * The whole loop on a live chain: the devnet grows a block every 250 ms, the indexer follows its
 * tip through the SDK and notifies the BullMQ worker after each commit, and the first live sale must
 * show up in the trending snapshot within a minute — without any scheduled job (schedules off).
 */
const url = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const prefix = `mdq-live-${randomBytes(4).toString('hex')}`;

describe('a sale on the live devnet reaches the trending ranking', () => {
  let test: TestDatabase;
  let devnet: DevnetServer;
  let worker: WorkerHandle;
  const stop = new AbortController();
  let indexing: Promise<unknown>;

  beforeAll(async () => {
    test = await createTestDatabase();
    devnet = await startDevnetServer({
      port: 0,
      seed: 5,
      preset: 'tiny',
      endTime: 'now',
      blockIntervalMs: 250,
    });
    worker = await startWorker({
      db: test.db,
      redisUrl: url,
      prefix,
      logger: silentLogger,
      schedules: false,
      collectionChangedDelayMs: 500,
      rankingsRefreshBucketMs: 2_000,
      uri: { ipfsGateways: [], arweaveGateway: 'http://127.0.0.1:1/' },
    });
    const config = devnet.chain?.config;
    indexing = runIndexer({
      db: test.db,
      source: fullnodeSource(devnet.url),
      decode: createDecoder({
        marketplaceAddress: config?.marketplaceAddress ?? '',
        lootboxAddress: config?.lootboxAddress ?? '',
      }),
      notifier: worker.notifier,
      batchSize: 200,
      pollMs: 100,
      maxPollMs: 250,
      signal: stop.signal,
    });
  }, 60_000);

  afterAll(async () => {
    stop.abort();
    await indexing.catch(() => undefined);
    await worker?.close();
    await devnet?.close();
    const redis = createRedis(url);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await test?.drop();
  });

  it('moves the trending snapshot within 60 s of the sale', { timeout: 120_000 }, async () => {
    const initialTip = devnet.facts()?.chain.lastVersion ?? 0;
    // The first live fill after the initial chain, once the indexer has committed it.
    let sale: { version: number; collection_id: string; committed: number } | undefined;
    await eventually(async () => {
      const { rows } = await sql<{ version: number; collection_id: string }>`
        SELECT transaction_version AS version, collection_id FROM marketplace_activities
        WHERE transaction_version > ${initialTip} AND kind LIKE 'fill_%' AND collection_id IS NOT NULL
        ORDER BY transaction_version LIMIT 1`.execute(test.db);
      expect(rows[0]).toBeDefined();
      sale = { ...(rows[0] as { version: number; collection_id: string }), committed: Date.now() };
    }, 60_000);
    const { collection_id: collectionId, version } = sale as NonNullable<typeof sale>;

    const { rows: truth } = await sql<{ sales: number }>`
      SELECT count(*)::int AS sales FROM marketplace_activities
      WHERE collection_id = ${collectionId} AND kind LIKE 'fill_%' AND transaction_version <= ${version}
        AND transaction_timestamp >= now() - interval '7 days'`.execute(test.db);
    await eventually(async () => {
      const entry = (await readRanking(test.db, 'trending')).find((e) => e.collectionId === collectionId);
      expect(entry).toBeDefined();
      expect(Number(entry?.metrics['sales'])).toBeGreaterThanOrEqual(truth[0]?.sales ?? 1);
    }, 60_000);
    expect(Date.now() - (sale?.committed ?? 0)).toBeLessThan(60_000);
  });
});
