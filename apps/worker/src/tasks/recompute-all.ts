import type { Db } from '@mdq/db';
import { computeAllRankings } from './rankings';
import { computeAllRarity } from './rarity';
import { snapshotCollections, snapshotInventories } from './snapshots';

export interface RecomputeTimings {
  snapshotsMs: number;
  rankingsMs: number;
  rarityMs: number;
  inventoryMs: number;
}

/**
 * Everything the schedules produce, once, at `now`: collection snapshots first (rankings and
 * inventory read the floor at the current hour from them), then rankings, rarity and inventories.
 */
export async function recomputeAll(db: Db, now: Date = new Date()): Promise<RecomputeTimings> {
  const t0 = performance.now();
  await snapshotCollections(db, now);
  const t1 = performance.now();
  await computeAllRankings(db, now);
  const t2 = performance.now();
  await computeAllRarity(db, now);
  const t3 = performance.now();
  await snapshotInventories(db, now, { collectionsWritten: true });
  const t4 = performance.now();
  return { snapshotsMs: t1 - t0, rankingsMs: t2 - t1, rarityMs: t3 - t2, inventoryMs: t4 - t3 };
}
