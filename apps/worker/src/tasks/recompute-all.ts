import type { Db } from '@mdq/db';
import { computeAllRankings } from './rankings';
import { computeAllRarity } from './rarity';
import { snapshotInventories } from './snapshots';

export interface RecomputeTimings {
  rankingsMs: number;
  /** The hour's collection and inventory snapshots (one count of holdings) and their pruning. */
  snapshotsMs: number;
  /** Ran at the same time as the snapshots. */
  rarityMs: number;
}

/**
 * Everything the schedules produce, once, at `now`: the rankings, then the hour's snapshots and
 * every collection's rarity at the same time. The two are independent (no table of one is read by
 * the other) and each is one backend's work, so on two cores they overlap: the first recompute
 * after a backfill, where rarity is computed from nothing, takes the longer of the two instead of
 * their sum (docs/PERFORMANCE.md). The rankings read none of this hour's snapshots (floors now are
 * the live listings; a window start is a day or more ago).
 */
export async function recomputeAll(db: Db, now: Date = new Date()): Promise<RecomputeTimings> {
  const timed = async (fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  const rankingsMs = await timed(() => computeAllRankings(db, now));
  const [snapshotsMs, rarityMs] = await Promise.all([
    timed(() => snapshotInventories(db, now)),
    timed(() => computeAllRarity(db, now)),
  ]);
  return { rankingsMs, snapshotsMs, rarityMs };
}
