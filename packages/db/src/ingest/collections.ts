import { sql } from 'kysely';
import type { Db } from '../database';
import { type Columns, lastByKey, mergeNonNull, unnestInsertReturning } from './bulk';
import type { CollectionRow, IngestBatch } from './types';

/** The column types of `collections` as the indexer writes them: declared once, used by every writer of the table. */
export const COLLECTION_COLUMNS = {
  collection_id: 'text',
  token_standard: 'text',
  creator_address: 'text',
  collection_name: 'text',
  description: 'text',
  uri: 'text',
  current_supply: 'numeric',
  max_supply: 'numeric',
  total_minted: 'numeric',
  created_at: 'timestamptz',
  created_version: 'bigint',
  last_transaction_version: 'bigint',
} as const satisfies Columns<CollectionRow>;

/** Returns the rows written and the ids of collections this batch created. */
export async function writeCollections(
  db: Db,
  batch: IngestBatch,
): Promise<{ rows: number; created: string[] }> {
  const rows = mergeNonNull(batch.collections, (r) => r.collection_id);
  const written = await unnestInsertReturning<CollectionRow, { collection_id: string; created: boolean }>(
    db,
    'collections',
    COLLECTION_COLUMNS,
    rows,
    `ON CONFLICT (collection_id) DO UPDATE SET
       creator_address = excluded.creator_address,
       collection_name = excluded.collection_name,
       description = COALESCE(excluded.description, collections.description),
       uri = COALESCE(excluded.uri, collections.uri),
       current_supply = COALESCE(excluded.current_supply, collections.current_supply),
       max_supply = COALESCE(excluded.max_supply, collections.max_supply),
       total_minted = COALESCE(excluded.total_minted, collections.total_minted),
       created_at = LEAST(excluded.created_at, collections.created_at),
       created_version = LEAST(excluded.created_version, collections.created_version),
       last_transaction_version = excluded.last_transaction_version
     WHERE collections.last_transaction_version <= excluded.last_transaction_version
     RETURNING collection_id, (xmax = 0) AS created`,
  );
  const supplies = lastByKey(batch.collectionSupplies, (r) => r.collection_id);
  let updated = 0;
  if (supplies.length > 0) {
    // Supply-only facts update known collections; they never create one (no name, no creator).
    const result = await sql`
      UPDATE collections c SET
        current_supply = COALESCE(s.current_supply, c.current_supply),
        max_supply = COALESCE(s.max_supply, c.max_supply),
        total_minted = COALESCE(s.total_minted, c.total_minted),
        last_transaction_version = s.version
      FROM unnest(${supplies.map((r) => r.collection_id)}::text[], ${supplies.map((r) => r.current_supply)}::numeric[],
                  ${supplies.map((r) => r.max_supply)}::numeric[], ${supplies.map((r) => r.total_minted)}::numeric[],
                  ${supplies.map((r) => r.last_transaction_version)}::bigint[])
        AS s(collection_id, current_supply, max_supply, total_minted, version)
      WHERE c.collection_id = s.collection_id AND c.last_transaction_version <= s.version
        AND c.collection_id = ANY(${supplies.map((r) => r.collection_id)}::text[])
    `.execute(db);
    updated = Number(result.numAffectedRows ?? 0);
  }
  return {
    rows: written.length + updated,
    created: written.filter((r) => r.created).map((r) => r.collection_id),
  };
}
