import type { AggregatePayload } from './queues/aggregates';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * One schedule, two clocks: `pattern` (cron, UTC) for BullMQ job schedulers, and the same instants
 * as `everyMs` aligned to the epoch plus `offsetMs` for the in-process runner without Redis.
 */
export interface ScheduleDefinition {
  id: string;
  pattern: string;
  everyMs: number;
  offsetMs: number;
  payload: AggregatePayload;
}

export const SCHEDULES: readonly ScheduleDefinition[] = [
  // Hourly history first: floors/holders, then inventories valued at those floors.
  {
    id: 'collection-snapshots',
    pattern: '0 * * * *',
    everyMs: HOUR,
    offsetMs: 0,
    payload: { task: 'collection-snapshots' },
  },
  {
    id: 'inventory-snapshots',
    pattern: '2 * * * *',
    everyMs: HOUR,
    offsetMs: 2 * MINUTE,
    payload: { task: 'inventory-snapshots' },
  },
  // Window aggregates: the shorter the window, the faster it slides.
  {
    id: 'ranking-daily-picks',
    pattern: '*/5 * * * *',
    everyMs: 5 * MINUTE,
    offsetMs: 0,
    payload: { task: 'ranking', ranking: 'daily_picks' },
  },
  {
    id: 'ranking-trending',
    pattern: '*/15 * * * *',
    everyMs: 15 * MINUTE,
    offsetMs: 0,
    payload: { task: 'ranking', ranking: 'trending' },
  },
  {
    id: 'ranking-top',
    pattern: '30 * * * *',
    everyMs: HOUR,
    offsetMs: 30 * MINUTE,
    payload: { task: 'ranking', ranking: 'top' },
  },
  // Upcoming changes when a mint start passes, with no chain event to announce it.
  {
    id: 'ranking-lootboxes',
    pattern: '* * * * *',
    everyMs: MINUTE,
    offsetMs: 0,
    payload: { task: 'ranking', ranking: 'lootboxes' },
  },
  // Safety net for rarity (collection-changed covers reveals within seconds).
  {
    id: 'rarity-refresh',
    pattern: '15 3 * * *',
    everyMs: 24 * HOUR,
    offsetMs: 3 * HOUR + 15 * MINUTE,
    payload: { task: 'rarity-refresh' },
  },
  {
    id: 'uri-cache-sweep',
    pattern: '*/10 * * * *',
    everyMs: 10 * MINUTE,
    offsetMs: 0,
    payload: { task: 'uri-cache-sweep' },
  },
];

/** The next instant of an in-process schedule strictly after `now`. */
export function nextRun(schedule: ScheduleDefinition, now: number): number {
  const base =
    Math.floor((now - schedule.offsetMs) / schedule.everyMs) * schedule.everyMs + schedule.offsetMs;
  return base + schedule.everyMs;
}
