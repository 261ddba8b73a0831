import { QUEUE_NAMES } from '@mdq/jobs';
import { crawlCollectionMetadata } from '../metadata/crawl-collection';
import { recomputeRarityPaced } from './collection-changed';
import { defineJob, type JobDefinition } from './define-job';

/** Crawls one collection's due metadata documents (up to a batch); one run per collection at a time. */
export const metadataCrawlJob: JobDefinition<{ collectionId: string }> = defineJob({
  name: 'metadata',
  queue: QUEUE_NAMES.uriCache,
  coalesce: { key: (payload) => `metadata-${payload.collectionId}` },
  async run(ctx, payload) {
    const result = await crawlCollectionMetadata(ctx.db, payload.collectionId, {
      ...ctx.metadata,
      // Under the worker's rarity pace, as a collection-changed job's. A document change has no
      // chain version: the follow-up job, if the pace defers the recompute, carries 0.
      recomputeRarity: (collectionId, now) =>
        recomputeRarityPaced(ctx, { collectionId, version: 0, changedAt: Date.now() }, now),
    });
    // A collection with more due documents than one batch takes continues in a follow-up run, so
    // other collections' crawls interleave with it.
    if (result.more) await ctx.enqueue(metadataCrawlJob, payload);
    return result;
  },
});
