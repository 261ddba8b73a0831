import { listUriCacheDue } from '@mdq/db/worker';
import { QUEUE_NAMES } from '@mdq/jobs';
import { defineJob, type NoPayload } from './define-job';
import { uriResolveJob } from './uri-resolve';

/** Requests the resolution of up to a batch of missing or expired URI cache entries. */
export const uriCacheSweepJob = defineJob<NoPayload>({
  name: 'uri-cache-sweep',
  queue: QUEUE_NAMES.aggregates,
  schedules: [{ id: 'uri-cache-sweep', pattern: '*/10 * * * *', payload: {} }],
  async run(ctx) {
    const due = await listUriCacheDue(ctx.db, ctx.clock(), ctx.uriSweepBatch);
    for (const collectionId of due) await ctx.enqueue(uriResolveJob, { collectionId });
    return { enqueued: due.length };
  },
});
