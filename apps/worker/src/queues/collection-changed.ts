import { loadUriCacheEntry } from '@mdq/db/worker';
import type { ChangeBacklog, CollectionChangedPayload } from '@mdq/jobs';
import type { WorkerContext } from '../context';
import { computeCollectionRarity } from '../tasks/rarity';

/**
 * Consumer of the indexer's `collection-changed` jobs (payload, id and producer live in @mdq/jobs):
 * the collection's rarity is recomputed here and now (a reveal is visible within seconds), rankings
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
  await ctx.requestRankingsRefresh();
  if (!(await loadUriCacheEntry(ctx.db, payload.collectionId)))
    await ctx.requestUriResolve(payload.collectionId);
  return { rarityTokens };
}

/**
 * One collection-changed run as both runtimes do it: take the collection's first unprocessed change
 * from the backlog (everything committed before this instant is read by the run), recompute, and
 * log how long that change waited. A failed run puts its mark back so the backlog keeps counting.
 */
export async function runCollectionChanged(
  ctx: WorkerContext,
  backlog: ChangeBacklog,
  payload: CollectionChangedPayload,
): Promise<{ rarityTokens: number }> {
  const startedAt = Date.now();
  const firstChangeAt = (await backlog.take(payload.collectionId)) ?? payload.changedAt;
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
    await backlog.mark([payload.collectionId], firstChangeAt);
    throw err;
  }
}
