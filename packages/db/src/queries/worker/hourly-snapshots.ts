import { sql } from 'kysely';
import type { Db } from '../../database';
import { writeInventorySnapshots } from './inventory';
import { heldSql } from './market-filters';
import { writeCollectionSnapshots } from './snapshots';

/**
 * The hour's collection snapshots and inventory snapshots from one count of who holds what: both
 * read the tokens each wallet holds per collection (heldSql), which on the 1M chain is most of
 * either statement (~1 s: every positive balance, grouped); counted once into a temporary table,
 * the collection snapshot's holders are a GROUP BY of a few hundred thousand rows. The collection
 * rows are written first, so the inventories are valued at this hour's floors. One transaction;
 * the first observation per hour still wins (both inserts keep what the hour already has).
 */
export async function writeHourlySnapshots(
  db: Db,
  at: Date,
): Promise<{ collections: number; inventories: number }> {
  return db.transaction().execute(async (trx) => {
    await sql`CREATE TEMP TABLE hourly_held ON COMMIT DROP AS ${heldSql}`.execute(trx);
    await sql`ANALYZE hourly_held`.execute(trx);
    const collections = await writeCollectionSnapshots(trx, at, sql`hourly_held`);
    const inventories = await writeInventorySnapshots(trx, at, sql`hourly_held`);
    return { collections, inventories };
  });
}
