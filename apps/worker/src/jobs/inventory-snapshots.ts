import { QUEUE_NAMES } from '@mdq/jobs';
import { snapshotInventories } from '../tasks/snapshots';
import { defineJob, type NoPayload } from './define-job';

/** Every holder's inventory for the hour, valued at the floors the :00 snapshots wrote. */
export const inventorySnapshotsJob = defineJob<NoPayload>({
  name: 'inventory-snapshots',
  queue: QUEUE_NAMES.aggregates,
  schedules: [{ id: 'inventory-snapshots', pattern: '2 * * * *', payload: {} }],
  run: (ctx) => snapshotInventories(ctx.db, ctx.clock()),
});
