import type { Db } from '../database';

/** The highest chain version any indexer has committed, or null before the first batch. */
export async function latestIndexedVersion(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('indexer_checkpoints')
    .select((eb) => eb.fn.max('last_version').as('v'))
    .executeTakeFirst();
  return row?.v ?? null;
}

export async function readCheckpoint(db: Db, name: string): Promise<number | null> {
  const row = await db
    .selectFrom('indexer_checkpoints')
    .select('last_version')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.last_version ?? null;
}
