import { enforceRetention } from '@mdq/db/worker';
import { QUEUE_NAMES } from '@mdq/jobs';
import { defineJob, type NoPayload } from './define-job';

/** Time-grown tables back to their retention (docs/RELIABILITY.md, "Retention"), in batches. */
export const retentionJob = defineJob<NoPayload>({
  name: 'retention',
  queue: QUEUE_NAMES.aggregates,
  schedules: [{ id: 'retention', pattern: '50 * * * *', payload: {} }],
  run: (ctx) => enforceRetention(ctx.db, ctx.clock(), ctx.retention),
});
