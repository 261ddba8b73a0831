import { type Kysely, sql } from 'kysely';
import { createCollectionVersionTriggers } from './2026-12-01T1000_cache_collection_versions';

/*
 * `metadata_documents` joins the per-collection write counters (read_collection_versions): every
 * token page shows its token's document (image, status), and the crawler writes documents dozens of
 * times a second while it works through a collection (80 statements/s under the live bench), which
 * on the global counter retired every token page of every collection.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createCollectionVersionTriggers(db, 'metadata_documents');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const event of ['insert', 'update', 'delete', 'truncate']) {
    await sql
      .raw(`DROP TRIGGER IF EXISTS metadata_documents_collection_version_${event} ON metadata_documents`)
      .execute(db);
  }
}
