import { foldReadVersions } from '@mdq/db';
import { enforceRetention, listMetadataCollectionsDue, listUriCacheDue } from '@mdq/db/worker';
import { JOB_POLICIES, QUEUE_NAMES } from '@mdq/jobs';
import { type JobsOptions, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { WorkerContext } from '../context';
import { prerenderThumbnails } from '../media/prerender';
import type { CollectionRanking } from '../rankings/definitions';
import { computeAllRankings, computeCollectionRanking, computeLootboxRankings } from '../tasks/rankings';
import { computeAllRarity } from '../tasks/rarity';
import { snapshotCollections, snapshotInventories } from '../tasks/snapshots';

/** The `aggregates` queue: scheduled recomputes plus the coalesced rankings refresh. */
const AGGREGATES_QUEUE = QUEUE_NAMES.aggregates;

export type AggregatePayload =
  | { task: 'collection-snapshots' }
  | { task: 'inventory-snapshots' }
  | { task: 'ranking'; ranking: CollectionRanking | 'lootboxes' }
  | { task: 'rankings-refresh' }
  | { task: 'rarity-refresh' }
  | { task: 'uri-cache-sweep' }
  | { task: 'metadata-sweep' }
  | { task: 'read-versions-fold' }
  | { task: 'media-prerender' }
  | { task: 'retention' };

/** Retries and history: the aggregates policy of the job runtime description in @mdq/jobs. */
export const AGGREGATE_JOB_OPTIONS: JobsOptions = JOB_POLICIES[AGGREGATES_QUEUE];

/** Runs one aggregate task at `now`. Every task is a replace-or-upsert, so a retry is harmless. */
export async function processAggregate(
  ctx: WorkerContext,
  payload: AggregatePayload,
  now: Date,
): Promise<unknown> {
  switch (payload.task) {
    case 'collection-snapshots':
      return { written: await snapshotCollections(ctx.db, now) };
    case 'inventory-snapshots':
      return snapshotInventories(ctx.db, now);
    case 'ranking':
      return payload.ranking === 'lootboxes'
        ? { entries: await computeLootboxRankings(ctx.db, now) }
        : { entries: await computeCollectionRanking(ctx.db, payload.ranking, now) };
    case 'rankings-refresh':
      await computeAllRankings(ctx.db, now);
      return { ok: true };
    case 'rarity-refresh':
      return { tokens: await computeAllRarity(ctx.db, now) };
    case 'media-prerender':
      return ctx.media ? prerenderThumbnails(ctx.db, ctx.media, now) : { skipped: 'no media renderer' };
    case 'read-versions-fold':
      return foldReadVersions(ctx.db);
    case 'metadata-sweep': {
      const due = await listMetadataCollectionsDue(ctx.db, now, ctx.uriSweepBatch);
      for (const id of due) await ctx.requestMetadataCrawl(id);
      return { enqueued: due.length };
    }
    case 'retention':
      return enforceRetention(ctx.db, now, ctx.retention);
    case 'uri-cache-sweep': {
      const due = await listUriCacheDue(ctx.db, now, ctx.uriSweepBatch);
      for (const id of due) await ctx.requestUriResolve(id);
      return { enqueued: due.length };
    }
  }
}

/**
 * Coalesces refresh requests into one job per time bucket: every request in a bucket maps to the
 * same job id, and the job runs when the bucket ends, so it starts after every change that asked for
 * it (a request made while it runs falls in the next bucket and gets its own run).
 */
function rankingsRefreshJob(now: number, bucketMs: number): { jobId: string; delay: number } {
  const bucket = Math.floor(now / bucketMs) * bucketMs;
  return { jobId: `rankings-refresh-${bucket}`, delay: bucket + bucketMs - now };
}

export async function enqueueRankingsRefresh(
  queue: Queue<AggregatePayload>,
  bucketMs: number,
): Promise<void> {
  const { jobId, delay } = rankingsRefreshJob(Date.now(), bucketMs);
  await queue.add(
    'rankings-refresh',
    { task: 'rankings-refresh' },
    { ...AGGREGATE_JOB_OPTIONS, jobId, delay },
  );
}

export function aggregatesQueue(connection: Redis, prefix: string): Queue<AggregatePayload> {
  return new Queue<AggregatePayload>(AGGREGATES_QUEUE, {
    connection,
    prefix,
    defaultJobOptions: AGGREGATE_JOB_OPTIONS,
  });
}
