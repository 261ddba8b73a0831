import { CHAIN_STATE_TABLES, type Db, sql } from '@mdq/db';

/** Tables that hold chain-derived state (checkpoints differ by run name and are left out). */
export const STATE_TABLES = CHAIN_STATE_TABLES;

/** An order-independent fingerprint of every state table, for "same database" assertions. */
export async function stateFingerprint(db: Db): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of STATE_TABLES) {
    const column =
      table === 'failed_transactions' ? sql`(t.transaction_version, t.reason)::text` : sql`t::text`;
    const { rows } = await sql<{ h: string | null; n: number }>`
      SELECT md5(string_agg(${column}, '|' ORDER BY ${column})) AS h, count(*)::int AS n FROM ${sql.table(table)} t
    `.execute(db);
    out[table] = `${rows[0]?.n}:${rows[0]?.h ?? '-'}`;
  }
  return out;
}
