import { QUEUE_NAMES } from '@mdq/jobs';
import type { CollectionRanking } from '../rankings/definitions';
import { computeCollectionRanking, computeLootboxRankings } from '../tasks/rankings';
import { defineJob } from './define-job';

/** One window ranking, or the lootbox rankings (recently added, upcoming). */
export const rankingJob = defineJob<{ ranking: CollectionRanking | 'lootboxes' }>({
  name: 'ranking',
  queue: QUEUE_NAMES.aggregates,
  coalesce: { key: (payload) => `ranking-${payload.ranking}` },
  schedules: [
    // The shorter the window, the faster it slides.
    { id: 'ranking-daily-picks', pattern: '*/5 * * * *', payload: { ranking: 'daily_picks' } },
    { id: 'ranking-trending', pattern: '*/15 * * * *', payload: { ranking: 'trending' } },
    { id: 'ranking-top', pattern: '30 * * * *', payload: { ranking: 'top' } },
    // Upcoming changes when a mint start passes, with no chain event to announce it.
    { id: 'ranking-lootboxes', pattern: '* * * * *', payload: { ranking: 'lootboxes' } },
  ],
  async run(ctx, payload) {
    const now = ctx.clock();
    return payload.ranking === 'lootboxes'
      ? { entries: await computeLootboxRankings(ctx.db, now) }
      : { entries: await computeCollectionRanking(ctx.db, payload.ranking, now) };
  },
});
