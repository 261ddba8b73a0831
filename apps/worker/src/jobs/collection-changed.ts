import { loadUriCacheEntry, rarityIsStale } from '@mdq/db/worker';
import { type CollectionChangedPayload, collectionChangedJobId, QUEUE_NAMES } from '@mdq/jobs';
import { computeCollectionRarity } from '../tasks/rarity';
import { defineJob, type WorkerContext } from './define-job';
import { rankingsRefreshJob } from './rankings-refresh';
import { uriResolveJob } from './uri-resolve';

/**
 * The indexer's `collection-changed` jobs (payload, id and producer live in @mdq/jobs): the
 * collection's rarity is recomputed here and now when its traits changed (a reveal is visible
 * within seconds; a trade leaves it as it is) unless its last recompute was so recent that another
 * would exceed the worker's pace (`ctx.rarityPacer`: a tenth of the time per collection, a quarter
 * overall): then the job asks for itself again (coalesced, so every change
 * meanwhile joins that run) and rarity follows the collection within ten times its computation's
 * time. Rankings are refreshed once for the whole burst, and a collection never resolved gets its
 * URI resolved.
 * New and mutated tokens' documents are found by the metadata sweep (every minute), not here: a
 * crawl request per change doubled this job's queue work, and under a Redis restart left
 * collection-changed jobs without their lock at shutdown (the fault suite).
 */
export async function processCollectionChanged(
  ctx: WorkerContext,
  payload: CollectionChangedPayload,
  now: Date,
): Promise<{ rarityTokens: number | null; rarityDeferred: boolean }> {
  const id = payload.collectionId;
  const rarity = (await rarityIsStale(ctx.db, id))
    ? await recomputeRarityPaced(ctx, payload, now)
    : { rarityTokens: null, rarityDeferred: false };
  await ctx.enqueue(rankingsRefreshJob, {});
  if (!(await loadUriCacheEntry(ctx.db, id))) await ctx.enqueue(uriResolveJob, { collectionId: id });
  return rarity;
}

/**
 * The collection's OpenRarity now, unless the pace (`ctx.rarityPacer`) holds it back: then a
 * collection-changed job for it is queued (coalesced, so every change meanwhile joins that run),
 * which recomputes once the pace allows. Every one-collection recompute a job runs goes through
 * here (the scheduled recompute of all stale collections has its own schedule): the
 * collection-changed jobs' and the metadata crawl's (a crawl follows each mint of a collection
 * whose traits live in documents; run unpaced, its recomputes took a third of the database's time
 * under the live API bench, docs/PERFORMANCE.md).
 */
export async function recomputeRarityPaced(
  ctx: WorkerContext,
  payload: CollectionChangedPayload,
  now: Date,
): Promise<{ rarityTokens: number | null; rarityDeferred: boolean }> {
  const id = payload.collectionId;
  if (ctx.rarityPacer.waitMs(id, Date.now()) > 0) {
    await ctx.enqueue(collectionChangedJob, payload);
    return { rarityTokens: null, rarityDeferred: true };
  }
  const startedAt = Date.now();
  const rarityTokens = await computeCollectionRarity(ctx.db, id, now);
  ctx.rarityPacer.record(id, startedAt, Date.now());
  return { rarityTokens, rarityDeferred: false };
}

/**
 * One run: take the collection's first unprocessed change from the backlog (everything committed
 * before this instant is read by the run), recompute, and log how long that change waited. A
 * failed run puts its mark back so the backlog keeps counting. The window is the producer's
 * (`collectionChangedDelayMs`): the indexer's notifier adds these jobs with the same rule.
 */
export const collectionChangedJob = defineJob<CollectionChangedPayload>({
  name: QUEUE_NAMES.collectionChanged,
  queue: QUEUE_NAMES.collectionChanged,
  coalesce: {
    key: (payload) => collectionChangedJobId(payload.collectionId),
    windowMs: (windows) => windows.collectionChangedDelayMs,
  },
  async run(ctx, payload) {
    const startedAt = Date.now();
    const firstChangeAt = (await ctx.backlog.take(payload.collectionId)) ?? payload.changedAt;
    try {
      const result = await processCollectionChanged(ctx, payload, new Date(startedAt));
      // Debug: at info a busy chain would print a line per recompute.
      ctx.logger.debug(
        {
          collectionId: payload.collectionId,
          version: payload.version,
          firstChangeAt,
          startedAt,
          waitedMs: startedAt - firstChangeAt,
          rarityTokens: result.rarityTokens,
          rarityDeferred: result.rarityDeferred,
        },
        'collection recomputed',
      );
      // A deferred recompute has not answered the change yet: the lag report keeps counting it.
      if (result.rarityDeferred) await ctx.backlog.mark([payload.collectionId], firstChangeAt);
      return result;
    } catch (err) {
      await ctx.backlog.mark([payload.collectionId], firstChangeAt);
      throw err;
    }
  },
});
