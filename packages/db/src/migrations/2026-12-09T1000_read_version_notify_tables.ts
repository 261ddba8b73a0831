import type { Kysely } from 'kysely';
import { createFunctions } from '../functions';

/*
 * The notifications on `mdq_read_versions` name the table whose counters moved (bump_read_version,
 * bump_collection_versions). They carried nothing: an API that heard any commit had to read the
 * counters again before its next cached answer, and the metadata crawler alone commits 25–80 times
 * a second. With the table named, a reading stands for every answer that reads none of the tables
 * announced since it was sent (apps/api plugins/freshness.ts, ReadStateSource). An empty payload
 * (a function from before this migration) still means "anything may have changed".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createFunctions(db, 'bump_read_version', 'bump_collection_versions');
}
