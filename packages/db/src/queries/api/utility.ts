import type { Db } from '../../database';
import { loadUriCacheEntry } from '../worker/uri-cache';
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
  // The row as the worker reads it, in the answer's shape (named, times as ISO strings).
  const entry = await loadUriCacheEntry(db, collection.collectionId);
  if (!entry) return null;
  return {
    ...entry,
    collection: collection.collection,
    creator: collection.creator,
    fetchedAt: iso(entry.fetchedAt),
    expiresAt: iso(entry.expiresAt),
  };
}
