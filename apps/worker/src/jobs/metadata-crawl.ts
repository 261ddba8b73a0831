import { QUEUE_NAMES } from '@mdq/jobs';
import { crawlCollectionMetadata } from '../metadata/crawl-collection';
import { defineJob, type JobDefinition } from './define-job';

/** Crawls one collection's due metadata documents (up to a batch); one run per collection at a time. */
export const metadataCrawlJob: JobDefinition<{ collectionId: string }> = defineJob({
  name: 'metadata',
  queue: QUEUE_NAMES.uriCache,
  coalesce: { key: (payload) => `metadata-${payload.collectionId}` },
  async run(ctx, payload) {
    const result = await crawlCollectionMetadata(ctx.db, payload.collectionId, ctx.metadata);
    // A collection with more due documents than one batch takes continues in a follow-up run, so
    // other collections' crawls interleave with it.
    if (result.more) await ctx.enqueue(metadataCrawlJob, payload);
    return result;
  },
});
