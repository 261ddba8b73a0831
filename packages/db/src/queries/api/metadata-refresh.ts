import { sql } from 'kysely';
import type { Db } from '../../database';

/** What a refresh-metadata request names, once found. */
export interface RefreshTarget {
  collectionId: string;
  /** Null: the collection's own document and every token's. */
  tokenId: string | null;
}

/** The token (by id) or collection (by id) a refresh names; null when there is none. */
export async function findRefreshTarget(
  db: Db,
  input: { tokenId: string } | { collectionId: string },
): Promise<RefreshTarget | null> {
  if ('tokenId' in input) {
    const row = await db
      .selectFrom('tokens')
      .select(['token_data_id', 'collection_id'])
      .where('token_data_id', '=', input.tokenId)
      .executeTakeFirst();
    return row ? { collectionId: row.collection_id, tokenId: row.token_data_id } : null;
  }
  const row = await db
    .selectFrom('collections')
    .select('collection_id')
    .where('collection_id', '=', input.collectionId)
    .executeTakeFirst();
  return row ? { collectionId: row.collection_id, tokenId: null } : null;
}

/**
 * A refresh request: the stored documents of one token, or of a collection and all its tokens,
 * become due now (documents never fetched are due already). Returns how many were marked.
 */
export async function requestMetadataRefresh(db: Db, target: RefreshTarget, now: Date): Promise<number> {
  const result =
    target.tokenId !== null
      ? await sql`UPDATE metadata_documents SET refresh_at = ${now}
                   WHERE kind = 'token' AND subject_id = ${target.tokenId} AND refresh_at > ${now}`.execute(
          db,
        )
      : await sql`UPDATE metadata_documents SET refresh_at = ${now}
                   WHERE collection_id = ${target.collectionId} AND refresh_at > ${now}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
