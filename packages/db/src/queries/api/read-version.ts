import { sql } from 'kysely';
import type { Db } from '../../database';

/**
 * The state the API reads, named in one short string: the highest indexed chain version and the
 * write counter of the data tables (read_versions, bumped by triggers in every writing
 * transaction, whether the indexer's, the worker's or an operator's). Equal strings mean equal
 * data; both parts only grow.
 */
export async function readVersion(db: Db): Promise<string> {
  const { rows } = await sql<{ v: string }>`
    SELECT (SELECT coalesce(max(last_version), -1) FROM indexer_checkpoints)::text || '.' ||
           (SELECT coalesce(sum(version), 0) FROM read_versions)::text AS v`.execute(db);
  return rows[0]?.v ?? '';
}
