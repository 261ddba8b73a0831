import { QUEUE_NAMES } from '@mdq/jobs';
import { snapshotCollections } from '../tasks/snapshots';
import { defineJob, type NoPayload } from './define-job';

/** Floor, holders, listed count and supply per collection for the hour (hourly history first). */
export const collectionSnapshotsJob = defineJob<NoPayload>({
  name: 'collection-snapshots',
  queue: QUEUE_NAMES.aggregates,
  schedules: [{ id: 'collection-snapshots', pattern: '0 * * * *', payload: {} }],
  run: async (ctx) => ({ written: await snapshotCollections(ctx.db, ctx.clock()) }),
});
