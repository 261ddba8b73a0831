import type { Db } from '@mdq/db';
import { pruneInventorySnapshots, writeCollectionSnapshots, writeHourlySnapshots } from '@mdq/db/worker';

const HOUR = 3_600_000;

/** Snapshots are keyed by the hour they belong to, so a retried or duplicated job writes nothing new. */
function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR) * HOUR);
}

/** Hourly floor / holder / listed-count snapshot of every collection with holders or listings. */
export async function snapshotCollections(db: Db, now: Date): Promise<number> {
  return writeCollectionSnapshots(db, hourOf(now));
}

/**
 * Hourly inventory snapshot of every current holder (plus a zero point for wallets that just
 * emptied), valued at the same hour's collection floors, then retention pruning to the API buckets.
 * The hour's collection snapshots are written with them, from the same count of who holds what
 * (writeHourlySnapshots): where the :00 job already wrote them they stay as they are, and where it
 * did not run (or in `recomputeAll`) they are written here at no second count.
 */
export async function snapshotInventories(db: Db, now: Date): Promise<{ written: number; pruned: number }> {
  const { inventories: written } = await writeHourlySnapshots(db, hourOf(now));
  const pruned = await pruneInventorySnapshots(db, now);
  return { written, pruned };
}
