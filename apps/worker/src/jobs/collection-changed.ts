import { loadUriCacheEntry } from '@mdq/db/worker';
import { type CollectionChangedPayload, collectionChangedJobId, QUEUE_NAMES } from '@mdq/jobs';
import { computeCollectionRarity } from '../tasks/rarity';
import { defineJob, type WorkerContext } from './define-job';
import { rankingsRefreshJob } from './rankings-refresh';
import { uriResolveJob } from './uri-resolve';

/**
 * The indexer's `collection-changed` jobs (payload, id and producer live in @mdq/jobs): the
 * collection's rarity is recomputed here and now (a reveal is visible within seconds), rankings
 * are refreshed once for the whole burst, and a collection never resolved gets its URI resolved.
 * New and mutated tokens' documents are found by the metadata sweep (every minute), not here: a
 * crawl request per change doubled this job's queue work, and under a Redis restart left
 * collection-changed jobs without their lock at shutdown (the fault suite).
 */
export async function processCollectionChanged(
  ctx: WorkerContext,
  payload: CollectionChangedPayload,
  now: Date,
): Promise<{ rarityTokens: number }> {
  const rarityTokens = await computeCollectionRarity(ctx.db, payload.collectionId, now);
  await ctx.enqueue(rankingsRefreshJob, {});
  if (!(await loadUriCacheEntry(ctx.db, payload.collectionId)))
    await ctx.enqueue(uriResolveJob, { collectionId: payload.collectionId });
  return { rarityTokens };
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
        },
        'collection recomputed',
      );
      return result;
    } catch (err) {
      await ctx.backlog.mark([payload.collectionId], firstChangeAt);
      throw err;
    }
  },
});
