import { listMetadataCollectionsDue } from '@mdq/db/worker';
import { QUEUE_NAMES } from '@mdq/jobs';
import { defineJob, type NoPayload } from './define-job';
import { metadataCrawlJob } from './metadata-crawl';

/**
 * Requests the crawl of up to a batch of collections with a document due: tokens never crawled (new
 * mints) or mutated since, past their refresh age or backoff, or asked for (refresh-metadata also
 * requests its crawl at once).
 */
export const metadataSweepJob = defineJob<NoPayload>({
  name: 'metadata-sweep',
  queue: QUEUE_NAMES.aggregates,
  schedules: [{ id: 'metadata-sweep', pattern: '* * * * *', payload: {} }],
  async run(ctx) {
    const due = await listMetadataCollectionsDue(ctx.db, ctx.clock(), ctx.uriSweepBatch);
    for (const collectionId of due) await ctx.enqueue(metadataCrawlJob, { collectionId });
    return { enqueued: due.length };
  },
});
