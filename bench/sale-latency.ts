/**
 * A sale → the trending snapshot, on an indexed devnet chain, the way production runs it: the same
 * chain served again by a devnet process that now grows a block every 250 ms; the real indexer
 * follows it from its checkpoint and notifies a BullMQ worker after each commit (the product's
 * windows unless told: the collection-changed window, the rankings-refresh window; no schedules).
 * Every sale committed during the measured seconds is followed at once (polled every 50 ms): from
 * the indexer's notification for the sale's collection (its commit) to the first poll at which the
 * stored trending ranking counts it. Following every sale, not one after another, keeps the sample
 * from lining up with the refresh windows.
 *
 * The chain's time is not the wall clock's (the generated chain ended at a fixed instant), so the
 * worker computes at the chain's time: the wall clock shifted to the chain's last sale, plus an hour
 * so that every live block is inside the window.
 */
import { randomBytes } from 'node:crypto';
import { type Db, sql } from '@mdq/db';
import { fullnodeSource, runIndexer } from '@mdq/indexer';
import { type ChangeNotifier, createRedis } from '@mdq/jobs';
import { createLogger } from '@mdq/log';
import { startWorker } from '@mdq/worker';
import { devnetProcessDecoder, startDevnetProcess } from './devnet-process';

const POLL_MS = 50;

interface Sale {
  version: number;
  collectionId: string;
  at: Date;
}

interface Committed {
  at: number;
  version: number;
  collectionIds: readonly string[];
}

/** Milliseconds from commit to trending for every live sale committed during `seconds`. */
export async function saleToTrending(
  db: Db,
  count: number,
  seconds: number,
  redisUrl: string,
  batchSize: number,
  /** The worker's rankings-refresh window; undefined: the product default. */
  rankingsRefreshWindowMs?: number,
): Promise<number[]> {
  const { rows } = await sql<{ lastSale: Date }>`
    SELECT max(transaction_timestamp) AS "lastSale" FROM marketplace_activities`.execute(db);
  const liveStart = Date.now();
  const chainNow = new Date(rows[0]?.lastSale ?? liveStart).getTime() + 3_600_000;
  const clock = () => new Date(chainNow + (Date.now() - liveStart));

  const devnet = await startDevnetProcess(count, ['--block-interval-ms', '250']);
  const prefix = `mdq-bench-${randomBytes(4).toString('hex')}`;
  const worker = await startWorker({
    db,
    redisUrl,
    prefix,
    schedules: false,
    clock,
    ...(rankingsRefreshWindowMs !== undefined && { rankingsRefreshWindowMs }),
    logger: createLogger({ level: 'silent' }),
    // No collection URI of the devnet resolves; the measured path does not wait for them.
    uri: { ipfsGateways: [], arweaveGateway: 'http://127.0.0.1:1/' },
  });
  const commits: Committed[] = [];
  const notifier: ChangeNotifier = {
    async collectionsChanged(collectionIds, version) {
      commits.push({ at: performance.now(), version: Number(version), collectionIds: [...collectionIds] });
      await worker.notifier.collectionsChanged(collectionIds, version);
    },
    close: () => worker.notifier.close(),
  };
  const stop = new AbortController();
  const indexing = runIndexer({
    db,
    source: fullnodeSource(devnet.url),
    decode: devnetProcessDecoder(),
    notifier,
    batchSize,
    pollMs: 100,
    maxPollMs: 250,
    signal: stop.signal,
  });
  const latencies: number[] = [];
  try {
    let seen = await indexedVersion(db);
    let pending: Sale[] = [];
    const stopTaking = Date.now() + seconds * 1000;
    const deadline = stopTaking + 120_000;
    while (Date.now() < stopTaking || pending.length > 0) {
      if (Date.now() > deadline) throw new Error(`sale-to-trending: ${pending.length} sales never counted`);
      if (Date.now() < stopTaking) {
        const fresh = await salesAfter(db, seen);
        seen = fresh.at(-1)?.version ?? seen;
        pending.push(...fresh);
      }
      const shown = new Set(await countedOf(db, pending));
      const now = performance.now();
      pending = pending.filter((sale) => {
        // The indexer notifies right after its commit; a sale counted before the record of that
        // call is taken at the next poll.
        const committed = commits.find(
          (c) => c.version >= sale.version && c.collectionIds.includes(sale.collectionId),
        );
        if (!committed || !shown.has(sale.version)) return true;
        latencies.push(now - committed.at);
        return false;
      });
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } finally {
    stop.abort();
    await indexing.catch(() => undefined);
    await worker.close();
    devnet.stop();
    const redis = createRedis(redisUrl);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  }
  return latencies;
}

/**
 * The sales of `sales` that the stored trending ranking (with flagged sales: the ranking proper
 * leaves wash-flagged ones out) counts: the stored run's window reaches the sale, and the
 * collection's sales are at least its fills up to the sale inside that window. Before a sale is
 * counted its collection's entry is one short, or the window ends before it.
 */
async function countedOf(db: Db, sales: readonly Sale[]): Promise<number[]> {
  if (sales.length === 0) return [];
  const { rows } = await sql<{ version: string }>`
    SELECT x.version::text AS version
    FROM unnest(${sales.map((s) => s.version)}::bigint[], ${sales.map((s) => s.collectionId)}::text[],
                ${sales.map((s) => s.at)}::timestamptz[]) AS x(version, collection_id, at)
    JOIN ranking_runs r ON r.ranking = 'trending_with_flagged' AND r.window_end >= x.at
    LEFT JOIN ranking_snapshots s ON s.ranking = r.ranking AND s.collection_id = x.collection_id
    WHERE COALESCE((s.metrics->>'sales')::int, 0) >= (
      SELECT count(*) FROM marketplace_activities m
      WHERE m.collection_id = x.collection_id AND m.kind LIKE 'fill_%' AND m.transaction_version <= x.version
        AND m.transaction_timestamp >= r.window_start AND m.transaction_timestamp <= r.window_end)`.execute(
    db,
  );
  return rows.map((r) => Number(r.version));
}

async function indexedVersion(db: Db): Promise<number> {
  const row = await db.selectFrom('indexer_checkpoints').select('last_version').executeTakeFirst();
  return Number(row?.last_version ?? 0);
}

/** The sales (with a collection) committed after `version`, in chain order. */
async function salesAfter(db: Db, version: number): Promise<Sale[]> {
  const { rows } = await sql<{ version: string; collectionId: string; at: Date }>`
    SELECT transaction_version::text AS version, collection_id AS "collectionId", transaction_timestamp AS at
    FROM marketplace_activities
    WHERE transaction_version > ${version} AND kind LIKE 'fill_%' AND collection_id IS NOT NULL
    ORDER BY transaction_version, event_index`.execute(db);
  return rows.map((r) => ({ ...r, version: Number(r.version) }));
}
