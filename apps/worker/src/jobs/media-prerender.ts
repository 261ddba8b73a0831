import { QUEUE_NAMES } from '@mdq/jobs';
import { prerenderThumbnails } from '../media/prerender';
import { defineJob, type NoPayload } from './define-job';

/** Thumbnails of the ranked collections, after the trending and top rankings have moved. */
export const mediaPrerenderJob = defineJob<NoPayload>({
  name: 'media-prerender',
  queue: QUEUE_NAMES.aggregates,
  schedules: [{ id: 'media-prerender', pattern: '5-59/15 * * * *', payload: {} }],
  run: async (ctx) =>
    ctx.media ? prerenderThumbnails(ctx.db, ctx.media, ctx.clock()) : { skipped: 'no media renderer' },
});
