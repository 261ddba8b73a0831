import { foldReadVersions } from '@mdq/db';
import { QUEUE_NAMES } from '@mdq/jobs';
import { defineJob, type NoPayload } from './define-job';

/** Keeps the API's read-version sum a sum of few rows, however many connections have written. */
export const readVersionsFoldJob = defineJob<NoPayload>({
  name: 'read-versions-fold',
  queue: QUEUE_NAMES.aggregates,
  schedules: [{ id: 'read-versions-fold', pattern: '40 * * * *', payload: {} }],
  run: (ctx) => foldReadVersions(ctx.db),
});
