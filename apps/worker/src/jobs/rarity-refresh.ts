import { QUEUE_NAMES } from '@mdq/jobs';
import { computeAllRarity } from '../tasks/rarity';
import { defineJob, type NoPayload } from './define-job';

/**
 * Rarity of every collection whose traits changed since its last computation: the safety net for a
 * missed collection-changed job (which covers reveals within seconds).
 */
export const rarityRefreshJob = defineJob<NoPayload>({
  name: 'rarity-refresh',
  queue: QUEUE_NAMES.aggregates,
  schedules: [{ id: 'rarity-refresh', pattern: '15 3 * * *', payload: {} }],
  run: async (ctx) => ({ tokens: await computeAllRarity(ctx.db, ctx.clock()) }),
});
