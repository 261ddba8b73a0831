import { sql } from 'kysely';
import type { Db } from '../database';

/** The checkpoint of the tip follower (`mdq indexer`); ranged runs (`mdq backfill`) have their own. */
export const MAIN_CHECKPOINT = 'main';

/**
 * The checkpoint the live feed follows, as a one-row subquery (`last_version`, `last_timestamp`):
 * the tip follower's, else (only ranged runs so far) the highest. Every version up to the tip
 * follower's checkpoint that it will ever write is committed; a backfill's range checkpoint can be
 * ahead of it (history split by range runs in parallel), and following that one would move the
 * feed past versions the follower has yet to write, which no client would then receive.
 */
export const feedCheckpointRow = sql`(
  SELECT last_version, last_timestamp FROM indexer_checkpoints
   ORDER BY (name = ${MAIN_CHECKPOINT}) DESC, last_version DESC LIMIT 1)`;

/**
 * The version the live feed and the webhooks have reached once every event up to it is read (see
 * feedCheckpointRow), or null before the first batch.
 */
export async function feedIndexedVersion(db: Db): Promise<number | null> {
  const { rows } = await sql<{
    v: string;
  }>`SELECT c.last_version::text AS v FROM ${feedCheckpointRow} c`.execute(db);
  return rows[0] ? Number(rows[0].v) : null;
}

export async function readCheckpoint(db: Db, name: string): Promise<number | null> {
  const row = await db
    .selectFrom('indexer_checkpoints')
    .select('last_version')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.last_version ?? null;
}

/** The highest version any checkpoint (tip follower or ranged run) has reached, or null before any. */
export async function highestCheckpointVersion(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('indexer_checkpoints')
    .select((eb) => eb.fn.max('last_version').as('v'))
    .executeTakeFirst();
  return row?.v === null || row?.v === undefined ? null : Number(row.v);
}
