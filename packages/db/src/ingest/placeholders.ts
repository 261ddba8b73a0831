import { sql } from 'kysely';
import type { Db } from '../database';
import { lastByKey, pickColumns, unnestInsert, unnestInsertReturning } from './bulk';
import { COLLECTION_COLUMNS } from './collections';
import { TOKEN_COLUMNS } from './tokens';
import type { CollectionPlaceholderRow, IngestBatch, TokenPlaceholderRow } from './types';

/*
 * Rows for entities the batch's events name but whose creation was before indexing began
 * (see apps/indexer placeholders.ts). Written before the batch's real facts, which complete them.
 */

/** Creates the missing collections; returns the ids created. */
export async function writeCollectionPlaceholders(db: Db, batch: IngestBatch): Promise<string[]> {
  const rows = lastByKey(batch.collectionPlaceholders, (r) => r.collection_id);
  const created = await unnestInsertReturning<CollectionPlaceholderRow, { collection_id: string }>(
    db,
    'collections',
    pickColumns(COLLECTION_COLUMNS, [
      'collection_id',
      'token_standard',
      'creator_address',
      'collection_name',
      'created_at',
      'created_version',
      'last_transaction_version',
    ]),
    rows,
    'ON CONFLICT (collection_id) DO NOTHING RETURNING collection_id',
  );
  const ids = created.map((r) => r.collection_id);
  if (ids.length > 0) {
    // Tokens stored before their collection was known (a v2 token names only the collection object).
    await sql`
      UPDATE tokens t SET creator_address = c.creator_address, collection_name = c.collection_name
      FROM collections c
      WHERE t.collection_id = ANY(${ids}::text[]) AND c.collection_id = t.collection_id
        AND (t.creator_address IS NULL OR t.collection_name IS NULL)
    `.execute(db);
  }
  return ids;
}

/** Creates the missing tokens, and gives stored ones the collection names they lack. */
export async function writeTokenPlaceholders(db: Db, batch: IngestBatch): Promise<number> {
  return unnestInsert<TokenPlaceholderRow>(
    db,
    'tokens',
    pickColumns(TOKEN_COLUMNS, [
      'token_data_id',
      'token_standard',
      'collection_id',
      'creator_address',
      'collection_name',
      'token_name',
      'last_transaction_version',
    ]),
    lastByKey(batch.tokenPlaceholders, (r) => r.token_data_id),
    `ON CONFLICT (token_data_id) DO UPDATE SET
       creator_address = COALESCE(tokens.creator_address, excluded.creator_address),
       collection_name = COALESCE(tokens.collection_name, excluded.collection_name)
     WHERE (tokens.creator_address IS NULL AND excluded.creator_address IS NOT NULL)
        OR (tokens.collection_name IS NULL AND excluded.collection_name IS NOT NULL)`,
  );
}
