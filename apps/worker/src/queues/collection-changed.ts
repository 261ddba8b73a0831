import type { CollectionChangedPayload } from '@mdq/jobs';
import type { WorkerContext } from '../context';
import { computeCollectionRarity } from '../tasks/rarity';

/**
 * Consumer of the indexer's `collection-changed` jobs (payload, id and producer live in @mdq/jobs):
 * the collection's rarity is recomputed here and now (a reveal is visible within seconds), rankings
 * are refreshed once for the whole burst, and a collection never resolved gets its URI resolved.
 */
export async function processCollectionChanged(
  ctx: WorkerContext,
  payload: CollectionChangedPayload,
  now: Date,
): Promise<{ rarityTokens: number }> {
  const rarityTokens = await computeCollectionRarity(ctx.db, payload.collectionId, now);
  await ctx.requestRankingsRefresh();
  const cached = await ctx.db
    .selectFrom('collection_uri_cache')
    .select('collection_id')
    .where('collection_id', '=', payload.collectionId)
    .executeTakeFirst();
  if (!cached) await ctx.requestUriResolve(payload.collectionId);
  return { rarityTokens };
}
