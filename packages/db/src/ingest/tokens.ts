import { sql } from 'kysely';
import type { Db } from '../database';
import { type Columns, mergeNonNull, unnestInsertReturning } from './bulk';
import type { IngestBatch, TokenRow } from './types';

/** The column types of `tokens` as the indexer writes them: declared once, used by every writer of the table. */
export const TOKEN_COLUMNS = {
  token_data_id: 'text',
  token_standard: 'text',
  collection_id: 'text',
  creator_address: 'text',
  collection_name: 'text',
  token_name: 'text',
  description: 'text',
  token_uri: 'text',
  properties: 'jsonb',
  supply: 'numeric',
  maximum: 'numeric',
  largest_property_version: 'numeric',
  is_soulbound: 'boolean',
  minted_at: 'timestamptz',
  minted_version: 'bigint',
  last_transaction_version: 'bigint',
} as const satisfies Columns<TokenRow>;

export async function writeTokens(db: Db, batch: IngestBatch): Promise<number> {
  const rows = await withCollectionNames(
    db,
    mergeNonNull(batch.tokens, (r) => r.token_data_id),
  );
  const changed = await unnestInsertReturning<TokenRow, { token_data_id: string; has_properties: boolean }>(
    db,
    'tokens',
    TOKEN_COLUMNS,
    rows.map((r) => ({ ...r, is_soulbound: r.is_soulbound ?? false })),
    `ON CONFLICT (token_data_id) DO UPDATE SET
       collection_id = excluded.collection_id,
       creator_address = COALESCE(excluded.creator_address, tokens.creator_address),
       collection_name = COALESCE(excluded.collection_name, tokens.collection_name),
       token_name = CASE WHEN excluded.token_name = '' THEN tokens.token_name ELSE excluded.token_name END,
       description = COALESCE(excluded.description, tokens.description),
       token_uri = COALESCE(excluded.token_uri, tokens.token_uri),
       properties = COALESCE(excluded.properties, tokens.properties),
       supply = COALESCE(excluded.supply, tokens.supply),
       maximum = COALESCE(excluded.maximum, tokens.maximum),
       largest_property_version = COALESCE(excluded.largest_property_version, tokens.largest_property_version),
       is_soulbound = excluded.is_soulbound OR tokens.is_soulbound,
       minted_at = COALESCE(tokens.minted_at, excluded.minted_at),
       minted_version = COALESCE(tokens.minted_version, excluded.minted_version),
       last_transaction_version = excluded.last_transaction_version
     WHERE tokens.last_transaction_version <= excluded.last_transaction_version
       -- Most facts repeat what is stored (every transfer rewrites the token's resources): skip
       -- those, so the row and its trigram index are not rewritten for nothing.
       AND (excluded.collection_id <> tokens.collection_id
         OR excluded.token_name NOT IN ('', tokens.token_name)
         OR (excluded.creator_address IS NOT NULL AND excluded.creator_address IS DISTINCT FROM tokens.creator_address)
         OR (excluded.collection_name IS NOT NULL AND excluded.collection_name IS DISTINCT FROM tokens.collection_name)
         OR (excluded.description IS NOT NULL AND excluded.description IS DISTINCT FROM tokens.description)
         OR (excluded.token_uri IS NOT NULL AND excluded.token_uri IS DISTINCT FROM tokens.token_uri)
         OR (excluded.properties IS NOT NULL AND excluded.properties IS DISTINCT FROM tokens.properties)
         OR (excluded.supply IS NOT NULL AND excluded.supply IS DISTINCT FROM tokens.supply)
         OR (excluded.maximum IS NOT NULL AND excluded.maximum IS DISTINCT FROM tokens.maximum)
         OR (excluded.largest_property_version IS NOT NULL
           AND excluded.largest_property_version IS DISTINCT FROM tokens.largest_property_version)
         OR (excluded.is_soulbound AND NOT tokens.is_soulbound)
         OR (tokens.minted_version IS NULL AND excluded.minted_version IS NOT NULL))
     RETURNING token_data_id, properties IS NOT NULL AS has_properties`,
  );
  let written = changed.length;
  // Traits are derived from the stored property map of the rows that actually changed, so a
  // replay or a partial fact cannot skew them.
  const withProps = changed.filter((r) => r.has_properties).map((r) => r.token_data_id);
  if (withProps.length > 0) {
    // Only the on-chain rows are replaced: a token's document traits (source 'document', written by
    // the metadata crawler) stay. The property map wins where both name a trait (docs/DECISIONS.md),
    // and a document trait the map stops naming comes back from the stored document.
    await sql`DELETE FROM token_attributes WHERE token_data_id = ANY(${withProps}::text[]) AND source = 'chain'`.execute(
      db,
    );
    const inserted = await sql`
      INSERT INTO token_attributes (token_data_id, trait_type, collection_id, value)
      SELECT t.token_data_id, kv.key, t.collection_id, kv.value
      FROM tokens t, jsonb_each_text(t.properties) kv
      WHERE t.token_data_id = ANY(${withProps}::text[]) AND jsonb_typeof(t.properties) = 'object'
      ON CONFLICT (token_data_id, trait_type) DO UPDATE SET value = excluded.value, source = 'chain'
    `.execute(db);
    written += Number(inserted.numAffectedRows ?? 0);
    await sql`
      INSERT INTO token_attributes (token_data_id, trait_type, collection_id, value, source)
      SELECT d.subject_id, a.trait_type, d.collection_id, a.value, 'document'
      FROM metadata_documents d, jsonb_to_recordset(d.attributes) a(trait_type text, value text)
      WHERE d.kind = 'token' AND d.subject_id = ANY(${withProps}::text[]) AND jsonb_typeof(d.attributes) = 'array'
      ON CONFLICT DO NOTHING
    `.execute(db);
  }
  return written;
}

/*
 * A v2 token names only its collection object; creator and collection name come from the stored
 * collection (written earlier in the same batch), so that filters by (creator, collection) work
 * the same for both standards. They are set on the rows before the upsert, so a new token is
 * written once: an UPDATE after it rewrote every new token and all five of its indexes (25 ms of
 * a 100 ms tokens step at 200k, the largest statement of the step).
 */
async function withCollectionNames(db: Db, rows: TokenRow[]): Promise<TokenRow[]> {
  if (rows.length === 0) return rows;
  const ids = [...new Set(rows.map((r) => r.collection_id))];
  const { rows: found } = await sql<{
    collection_id: string;
    creator_address: string;
    collection_name: string;
  }>`
    SELECT collection_id, creator_address, collection_name FROM collections WHERE collection_id = ANY(${ids}::text[])`.execute(
    db,
  );
  const byId = new Map(found.map((c) => [c.collection_id, c]));
  return rows.map((r) => {
    const c = byId.get(r.collection_id);
    return c ? { ...r, creator_address: c.creator_address, collection_name: c.collection_name } : r;
  });
}
