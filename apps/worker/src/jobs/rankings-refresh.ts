import { QUEUE_NAMES } from '@mdq/jobs';
import { computeAllRankings } from '../tasks/rankings';
import { defineJob, type NoPayload } from './define-job';

/**
 * Every ranking recomputed once for a burst of collection changes (a sale reaches trending within
 * a window; on a busy chain the rankings run once per window, ~1 s of Postgres time each on the 1M
 * devnet chain: docs/PERFORMANCE.md).
 */
export const rankingsRefreshJob = defineJob<NoPayload>({
  name: 'rankings-refresh',
  queue: QUEUE_NAMES.aggregates,
  coalesce: { key: () => 'rankings-refresh', windowMs: (windows) => windows.rankingsRefreshWindowMs },
  async run(ctx) {
    await computeAllRankings(ctx.db, ctx.clock());
    return { ok: true };
  },
});
