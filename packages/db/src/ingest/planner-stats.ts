import { sql } from 'kysely';
import type { Db } from '../database';
import { CHAIN_STATE_TABLES } from './types';

/*
 * Planner statistics of the tables the indexer fills (issue #20). A backfill grows them from empty
 * to millions of rows; without statistics the planner takes `token_data_id = ANY(<500 ids>)` on a
 * composite key for a fifth of the table and reads it whole: every batch then costs as much as the
 * table is big (the rate along a 1M chain fell by half). Autovacuum analyzes such tables on its own
 * schedule, when it runs at all (it is off on the shared bench server, and lags behind a backfill
 * anywhere); the indexer therefore analyzes a table itself once it has changed by a fifth since its
 * last statistics, the rule autovacuum applies, so the statistics never lag far and the work stays a
 * few samples per doubling of a table.
 */
const CHANGED_SHARE = 0.2;
const CHANGED_MIN = 1_000;

/** Analyzes the written tables whose statistics lag; returns their names. */
export async function refreshPlannerStats(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT relname AS name FROM pg_stat_user_tables
     WHERE schemaname = current_schema() AND relname = ANY(${[...CHAIN_STATE_TABLES]}::text[])
       AND n_mod_since_analyze > ${CHANGED_MIN}::float8 + ${CHANGED_SHARE}::float8 * n_live_tup
     ORDER BY relname`.execute(db);
  const names = rows.map((r) => r.name);
  // One statement per table: ANALYZE takes a lock that never blocks the batch writes (SHARE UPDATE
  // EXCLUSIVE), and a short statement keeps a cancelled run from waiting on a long one.
  for (const name of names) await sql`ANALYZE ${sql.table(name)}`.execute(db);
  return names;
}
