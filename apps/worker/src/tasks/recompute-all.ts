import type { Db } from '@mdq/db';
import { computeAllRankings } from './rankings';
import { computeAllRarity } from './rarity';
import { snapshotInventories } from './snapshots';

export interface RecomputeTimings {
  /** The hour's collection and inventory snapshots (one count of holdings) and their pruning. */
  snapshotsMs: number;
  rankingsMs: number;
  rarityMs: number;
}

/**
 * Everything the schedules produce, once, at `now`: the hour's collection and inventory snapshots,
 * then the rankings and rarity.
 */
export async function recomputeAll(db: Db, now: Date = new Date()): Promise<RecomputeTimings> {
  const t0 = performance.now();
  await snapshotInventories(db, now);
  const t1 = performance.now();
  await computeAllRankings(db, now);
  const t2 = performance.now();
  await computeAllRarity(db, now);
  const t3 = performance.now();
  return { snapshotsMs: t1 - t0, rankingsMs: t2 - t1, rarityMs: t3 - t2 };
}
