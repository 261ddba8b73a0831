import { randomBytes } from 'node:crypto';
import { sql } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { readRanking } from '@mdq/db/worker';
import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { fullnodeSource, runIndexer } from '@mdq/indexer';
import { devnetDecoder } from '@mdq/indexer/testing';
import { type ChangeNotifier, createRedis, DEFAULT_COLLECTION_CHANGED_WINDOW_MS } from '@mdq/jobs';
import { requireTestRedis } from '@mdq/jobs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type WorkerHandle } from '../src/index';
import { eventually, silentLogger } from './wait';

/*
 * The whole loop on a live chain: the devnet grows a block every 250 ms, the indexer follows its
 * tip through the SDK and notifies the BullMQ worker after each commit, and the first live sale must
 * show up in the trending snapshot within a minute — without any scheduled job (schedules off).
 */
const url = await requireTestRedis();
const prefix = `mdq-live-${randomBytes(4).toString('hex')}`;
const RANKINGS_WINDOW_MS = 2_000;
/** For a loaded CI machine; a starved collection misses the bound by minutes, not seconds. */
const MARGIN_MS = 10_000;

/** When the indexer told the worker about each collection (after each commit), as the test saw it. */
function recordChanges(inner: ChangeNotifier): { notifier: ChangeNotifier; changes: Map<string, number[]> } {
  const changes = new Map<string, number[]>();
  return {
    changes,
    notifier: {
      async collectionsChanged(collectionIds, version) {
        const at = Date.now();
        for (const id of collectionIds) changes.set(id, [...(changes.get(id) ?? []), at]);
        await inner.collectionsChanged(collectionIds, version);
      },
      close: () => inner.close(),
    },
  };
}

describe('a sale on the live devnet reaches the trending ranking', () => {
  let test: TestDatabase;
  let devnet: DevnetServer;
  let worker: WorkerHandle;
  const stop = new AbortController();
  let indexing: Promise<unknown>;
  let changes: Map<string, number[]>;

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
      // The documented default window (the maximum wait) applies.
      rankingsRefreshWindowMs: RANKINGS_WINDOW_MS,
      uri: { ipfsGateways: [], arweaveGateway: 'http://127.0.0.1:1/' },
    });
    const recording = recordChanges(worker.notifier);
    changes = recording.changes;
    indexing = runIndexer({
      db: test.db,
      source: fullnodeSource(devnet.url),
      decode: devnetDecoder(devnet),
      notifier: recording.notifier,
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
    let sale: { version: number; collection_id: string } | undefined;
    await eventually(async () => {
      const { rows } = await sql<{ version: number; collection_id: string }>`
        SELECT transaction_version AS version, collection_id FROM marketplace_activities
        WHERE transaction_version > ${initialTip} AND kind LIKE 'fill_%' AND collection_id IS NOT NULL
        ORDER BY transaction_version LIMIT 1`.execute(test.db);
      expect(rows[0]).toBeDefined();
      sale = rows[0];
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
  });

  it('after catch-up, the top trending collection has rarity and a trending snapshot within the max wait of a change', {
    timeout: 180_000,
  }, async () => {
    const initialTip = devnet.facts()?.chain.lastVersion ?? 0;
    await eventually(async () => {
      const checkpoint = await test.db
        .selectFrom('indexer_checkpoints')
        .select('last_version')
        .executeTakeFirst();
      expect(Number(checkpoint?.last_version ?? -1)).toBeGreaterThanOrEqual(initialTip);
    }, 90_000);
    let top = '';
    await eventually(async () => {
      const [first] = await readRanking(test.db, 'trending');
      expect(first?.collectionId).toBeDefined();
      top = first?.collectionId ?? '';
    }, 60_000);
    // The next change to the top collection the indexer reports from here on.
    const from = Date.now();
    let changedAt = 0;
    await eventually(async () => {
      changedAt = (changes.get(top) ?? []).find((at) => at >= from) ?? 0;
      expect(changedAt).toBeGreaterThan(0);
    }, 90_000);
    // Rarity has caught up with the change once it was computed from the collection's traits as
    // they stood after it: its mark reaches the trait version read now (a sale changes no trait,
    // and then the mark may be there already; a mint moves the version and needs a recompute).
    const traits = await test.db
      .selectFrom('collection_trait_totals')
      .select('changed_version')
      .where('collection_id', '=', top)
      .executeTakeFirstOrThrow();
    // The first poll that sees rarity caught up, and the first trending run at or after the change
    // (a later run only overwrites it with a later time, which can only make the wait longer).
    let rarityAt = 0;
    let trendingAt = 0;
    await eventually(async () => {
      const rarity = await test.db
        .selectFrom('token_rarity')
        .select((eb) => eb.fn.countAll<string>().as('rows'))
        .where('collection_id', '=', top)
        .executeTakeFirst();
      expect(Number(rarity?.rows ?? 0)).toBeGreaterThan(0);
      const mark = await test.db
        .selectFrom('collection_rarity_marks')
        .select('computed_from')
        .where('collection_id', '=', top)
        .executeTakeFirst();
      rarityAt ||= Number(mark?.computed_from ?? -1) >= Number(traits.changed_version) ? Date.now() : 0;
      const run = await test.db
        .selectFrom('ranking_runs')
        .select('computed_at')
        .where('ranking', '=', 'trending')
        .executeTakeFirst();
      trendingAt ||= (run?.computed_at.getTime() ?? 0) >= changedAt ? (run?.computed_at.getTime() ?? 0) : 0;
      expect(rarityAt).toBeGreaterThan(0);
      expect(trendingAt).toBeGreaterThan(0);
    }, 90_000);
    expect(rarityAt - changedAt).toBeLessThanOrEqual(DEFAULT_COLLECTION_CHANGED_WINDOW_MS + MARGIN_MS);
    expect(trendingAt - changedAt).toBeLessThanOrEqual(
      DEFAULT_COLLECTION_CHANGED_WINDOW_MS + RANKINGS_WINDOW_MS + MARGIN_MS,
    );
    const lag = await worker.changeLag();
    expect(lag.oldestChangeAgeMs ?? 0).toBeLessThanOrEqual(DEFAULT_COLLECTION_CHANGED_WINDOW_MS + MARGIN_MS);
  });
});
