import type { Kysely } from 'kysely';
import { createFunctions } from '../functions';

/*
 * Every transaction that moves a read counter notifies channel `mdq_read_versions` at its commit
 * (bump_read_version, bump_collection_versions): the API learns of new counters by LISTEN and
 * answers cached routes without reading the counters for every request (apps/api
 * plugins/freshness.ts, ReadStateSource). Postgres delivers one notification per transaction
 * whatever the number of statements that asked, and none for a transaction that rolls back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createFunctions(db, 'bump_read_version', 'bump_collection_versions');
}
