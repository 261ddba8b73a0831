import type { CollectionVersionedTable, Database } from '@mdq/db';

/**
 * What a cached route reads, which its answers are keyed by (see registerResponseCache).
 *
 * - `tables`: every table the route's statements read (test/read-tables.test.ts checks them
 *   against the relations of each statement's plan). A body that shows the indexed version or
 *   other checkpoint figures names `indexer_checkpoints`.
 * - `collection`: for a page asked about one collection by its (creator, collection) query pair:
 *   the tables its statements read only by `collection_id` of that pair's collections (each a table
 *   of COLLECTION_VERSIONED_TABLES, and among `tables`). Those key on the pair's collections'
 *   counters instead of the table's: a write to another collection leaves the page cached.
 */
export interface ReadCacheConfig {
  tables: readonly (keyof Database)[];
  collection?: { tables: readonly CollectionVersionedTable[] };
}
