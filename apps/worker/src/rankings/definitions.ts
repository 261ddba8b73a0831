import type { CollectionRanking } from '@mdq/db/read';
import type { MetricSpec } from './score';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The rankings' names, as the API reads them (one description, in @mdq/db). */
export type { CollectionRanking };

/**
 * How deep the live feed watches each collection ranking: a run reports (`ranking_changed`) every
 * collection that entered, left or moved within this many first places — a front end's ranking
 * widget, and the rankings routes' default page.
 */
export const FEED_RANKING_TOP = 10;

export interface CollectionRankingDefinition {
  name: CollectionRanking;
  windowMs: number;
  metrics: readonly MetricSpec[];
}

/**
 * Weights per window, as published in docs/API.md "Rankings" (why these: docs/DECISIONS.md,
 * "Rankings"). Metric names are the keys stored in `metrics`.
 */
export const COLLECTION_RANKINGS: Record<CollectionRanking, CollectionRankingDefinition> = {
  trending: {
    name: 'trending',
    windowMs: 7 * DAY,
    metrics: [
      { name: 'volume', weight: 0.5 },
      { name: 'sales', weight: 0.3 },
      { name: 'uniqueBuyers', weight: 0.2 },
    ],
  },
  daily_picks: {
    name: 'daily_picks',
    windowMs: DAY,
    metrics: [
      { name: 'volume', weight: 0.5 },
      { name: 'floorChange', weight: 0.3 },
      { name: 'socialEngagement', weight: 0.2 },
    ],
  },
  top: {
    name: 'top',
    windowMs: 30 * DAY,
    metrics: [
      { name: 'volume', weight: 0.5 },
      { name: 'floorChange', weight: 0.25 },
      { name: 'holders', weight: 0.25 },
    ],
  },
};

/**
 * Relative floor change (now − start) / start; null when either floor is missing or the start floor is
 * zero, i.e. there is nothing to compare.
 */
export function floorChange(start: string | null | undefined, now: string | null | undefined): number | null {
  if (start === null || start === undefined || now === null || now === undefined) return null;
  const s = BigInt(start);
  if (s === 0n) return null;
  // Scaled integer division keeps 1e-9 precision on u64 prices before converting to a float.
  const scaled = ((BigInt(now) - s) * 1_000_000_000n) / s;
  return Number(scaled) / 1e9;
}
