import { type Kysely, sql } from 'kysely';
import { createCollectionVersionTriggers } from './2026-12-01T1000_cache_collection_versions';

/*
 * `collection_trait_totals` joins the per-collection write counters (read_collection_versions):
 * tokens-by-collection now takes its total from the collection's kept live-token count instead of
 * counting the collection's tokens on every miss (7.7 ms a page on the 1M chain, 889 a live run),
 * and a collection page keyed on the global counter of a table that every token write changes
 * would retire on any collection's write.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createCollectionVersionTriggers(db, 'collection_trait_totals');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const event of ['insert', 'update', 'delete', 'truncate']) {
    await sql
      .raw(
        `DROP TRIGGER IF EXISTS collection_trait_totals_collection_version_${event} ON collection_trait_totals`,
      )
      .execute(db);
  }
}
