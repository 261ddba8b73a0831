import { sql } from 'kysely';
import type { Db } from '../database';

function today(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Rows the key has exported today (UTC). */
export async function exportRowsUsed(db: Db, keyId: string, now: Date = new Date()): Promise<number> {
  const row = await db
    .selectFrom('export_usage')
    .select('rows')
    .where('key_id', '=', keyId)
    .where('day', '=', today(now))
    .executeTakeFirst();
  return Number(row?.rows ?? 0);
}

/** Adds rows to the key's count of the day. */
export async function addExportRows(
  db: Db,
  keyId: string,
  rows: number,
  now: Date = new Date(),
): Promise<void> {
  if (rows <= 0) return;
  await sql`
    INSERT INTO export_usage (key_id, day, rows) VALUES (${keyId}, ${today(now)}, ${rows})
    ON CONFLICT (key_id, day) DO UPDATE SET rows = export_usage.rows + excluded.rows`.execute(db);
}
