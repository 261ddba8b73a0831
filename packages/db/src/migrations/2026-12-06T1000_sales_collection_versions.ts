import { type Kysely, sql } from 'kysely';
import { createCollectionVersionTriggers } from './2026-12-01T1000_cache_collection_versions';

/*
 * `marketplace_activities`, `collection_snapshots` and `lootboxes` join the per-collection write
 * counters (read_collection_versions): a collection's chart history and top traders read nothing
 * else but its lookup, so a sale in one collection now retires that collection's analytics answers
 * only. Keyed on the global counters, every block with a sale anywhere retired all of them (9-15%
 * hits under the live bench's moving chain). `lootboxes` is read only to find a collection asked
 * for by lootboxId, an answer keyed on the global counters; asked by id or pair, the answer reads
 * no lootbox, and a purchase in any lootbox (which rewrites its row) no longer retires it.
 */
const TABLES = ['marketplace_activities', 'collection_snapshots', 'lootboxes'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await createCollectionVersionTriggers(db, table);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    for (const event of ['insert', 'update', 'delete', 'truncate']) {
      await sql.raw(`DROP TRIGGER IF EXISTS ${table}_collection_version_${event} ON ${table}`).execute(db);
    }
  }
}
