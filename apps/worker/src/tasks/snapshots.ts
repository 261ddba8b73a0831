import { type Db, pruneInventorySnapshots, writeCollectionSnapshots, writeInventorySnapshots } from '@mdq/db';

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
 * The hour's collection snapshots are written first unless the caller has just written them
 * (`collectionsWritten`): the scheduled job cannot know that the :00 job ran, but `recomputeAll`
 * does, and on the 1M chain writing them again cost as much as writing them (the whole holders
 * aggregate runs before ON CONFLICT finds every row there).
 */
export async function snapshotInventories(
  db: Db,
  now: Date,
  { collectionsWritten = false }: { collectionsWritten?: boolean } = {},
): Promise<{ written: number; pruned: number }> {
  const hour = hourOf(now);
  if (!collectionsWritten) await writeCollectionSnapshots(db, hour);
  const written = await writeInventorySnapshots(db, hour);
  const pruned = await pruneInventorySnapshots(db, now);
  return { written, pruned };
}
