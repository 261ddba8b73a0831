import { sql } from 'kysely';
import type { Db } from '../database';

export interface MediaSource {
  kind: 'token' | 'collection';
  /** The token's or collection's URI: an image, or metadata naming one. */
  uri: string | null;
}

/** What a media id names: a token (token data id / object address) or a collection. */
export async function mediaSourceOf(db: Db, id: string): Promise<MediaSource | null> {
  const { rows } = await sql<MediaSource>`
    (SELECT 'token' AS kind, token_uri AS uri FROM tokens WHERE token_data_id = ${id})
    UNION ALL
    (SELECT 'collection', uri FROM collections WHERE collection_id = ${id})
    LIMIT 1`.execute(db);
  return rows[0] ?? null;
}
