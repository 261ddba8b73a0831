import { nextCronRun } from '@mdq/jobs';
import type { AggregatePayload } from './queues/aggregates';

/**
 * One schedule, one clock: `pattern` (cron, UTC) is what BullMQ's job scheduler runs and what the
 * in-process runner computes its next instant from (`nextRun`, the same cron parser).
 */
export interface ScheduleDefinition {
  id: string;
  pattern: string;
  payload: AggregatePayload;
}

export const SCHEDULES: readonly ScheduleDefinition[] = [
  // Hourly history first: floors/holders, then inventories valued at those floors.
  {
    id: 'collection-snapshots',
    pattern: '0 * * * *',
    payload: { task: 'collection-snapshots' },
  },
  {
    id: 'inventory-snapshots',
    pattern: '2 * * * *',
    payload: { task: 'inventory-snapshots' },
  },
  // Window aggregates: the shorter the window, the faster it slides.
  {
    id: 'ranking-daily-picks',
    pattern: '*/5 * * * *',
    payload: { task: 'ranking', ranking: 'daily_picks' },
  },
  {
    id: 'ranking-trending',
    pattern: '*/15 * * * *',
    payload: { task: 'ranking', ranking: 'trending' },
  },
  {
    id: 'ranking-top',
    pattern: '30 * * * *',
    payload: { task: 'ranking', ranking: 'top' },
  },
  // Upcoming changes when a mint start passes, with no chain event to announce it.
  {
    id: 'ranking-lootboxes',
    pattern: '* * * * *',
    payload: { task: 'ranking', ranking: 'lootboxes' },
  },
  // Safety net for rarity (collection-changed covers reveals within seconds).
  {
    id: 'rarity-refresh',
    pattern: '15 3 * * *',
    payload: { task: 'rarity-refresh' },
  },
  // Thumbnails of the ranked collections, after the trending and top rankings have moved.
  {
    id: 'media-prerender',
    pattern: '5-59/15 * * * *',
    payload: { task: 'media-prerender' },
  },
  {
    id: 'uri-cache-sweep',
    pattern: '*/10 * * * *',
    payload: { task: 'uri-cache-sweep' },
  },
  // Metadata documents due: tokens never crawled (new mints) or mutated since, past their refresh
  // age or backoff, or asked for (refresh-metadata also queues its crawl at once).
  {
    id: 'metadata-sweep',
    pattern: '* * * * *',
    payload: { task: 'metadata-sweep' },
  },
  // Keeps the API's read-version sum a sum of few rows, however many connections have written.
  {
    id: 'read-versions-fold',
    pattern: '40 * * * *',
    payload: { task: 'read-versions-fold' },
  },
  // Time-grown tables back to their retention (docs/RELIABILITY.md, "Retention"), in batches.
  {
    id: 'retention',
    pattern: '50 * * * *',
    payload: { task: 'retention' },
  },
];

/** The next instant of a schedule strictly after `now` (epoch ms). */
export function nextRun(schedule: ScheduleDefinition, now: number): number {
  return nextCronRun(schedule.pattern, now);
}
