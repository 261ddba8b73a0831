import type { Db } from '../../database';
import { iso } from './pagination';

export interface CollectionUriState {
  collectionId: string;
  collection: string;
  creator: string;
  metadataUri: string | null;
  imageUrl: string | null;
  contentType: string | null;
  status: 'ok' | 'error' | 'pending';
  error: string | null;
  attempts: number;
  fetchedAt: string | null;
  expiresAt: string | null;
}

/** Collections named `name` (and created by `creator` when given), oldest first. */
export async function collectionsNamed(db: Db, name: string, creator?: string): Promise<NamedCollection[]> {
  let query = db
    .selectFrom('collections')
    .select(['collection_id', 'collection_name', 'creator_address', 'uri'])
    .where('collection_name', '=', name);
  if (creator !== undefined) query = query.where('creator_address', '=', creator);
  const rows = await query.orderBy('created_version').limit(10).execute();
  return rows.map((r) => ({
    collectionId: r.collection_id,
    collection: r.collection_name,
    creator: r.creator_address,
    uri: r.uri,
  }));
}

export interface NamedCollection {
  collectionId: string;
  collection: string;
  creator: string;
  uri: string | null;
}

/**
 * Marks a collection's image URI for (re)resolution: an absent, failed or expired entry becomes
 * `pending` so that the worker's resolver picks it up; a fresh `ok` entry is left alone.
 */
export async function markCollectionUriPending(
  db: Db,
  collection: NamedCollection,
  now = new Date(),
): Promise<void> {
  await db
    .insertInto('collection_uri_cache')
    .values({ collection_id: collection.collectionId, metadata_uri: collection.uri, status: 'pending' })
    .onConflict((oc) =>
      oc
        .column('collection_id')
        .doUpdateSet({ status: 'pending', metadata_uri: collection.uri })
        .where((eb) =>
          eb.or([
            eb('collection_uri_cache.status', '=', 'error'),
            eb('collection_uri_cache.expires_at', '<', now),
          ]),
        ),
    )
    .execute();
}

/** The cache entry of a collection, or null when nothing was ever requested for it. */
export async function readCollectionUriState(
  db: Db,
  collection: NamedCollection,
): Promise<CollectionUriState | null> {
  const row = await db
    .selectFrom('collection_uri_cache')
    .selectAll()
    .where('collection_id', '=', collection.collectionId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    collectionId: row.collection_id,
    collection: collection.collection,
    creator: collection.creator,
    metadataUri: row.metadata_uri,
    imageUrl: row.image_url,
    contentType: row.content_type,
    status: row.status,
    error: row.error,
    attempts: row.attempts,
    fetchedAt: iso(row.fetched_at),
    expiresAt: iso(row.expires_at),
  };
}
