import { sql } from 'kysely';
import type { Db } from '../../database';
import type { CollectionUriCacheTable } from '../../schema/index';

export interface CollectionUriSource {
  collectionId: string;
  uri: string | null;
}

export async function loadCollectionUri(
  db: Db,
  collectionId: string,
): Promise<CollectionUriSource | undefined> {
  const row = await db
    .selectFrom('collections')
    .select(['collection_id', 'uri'])
    .where('collection_id', '=', collectionId)
    .executeTakeFirst();
  return row ? { collectionId: row.collection_id, uri: row.uri } : undefined;
}

export interface UriCacheEntry {
  collectionId: string;
  metadataUri: string | null;
  imageUrl: string | null;
  contentType: string | null;
  status: CollectionUriCacheTable['status'];
  error: string | null;
  attempts: number;
  fetchedAt: Date | null;
  expiresAt: Date | null;
}

export async function loadUriCacheEntry(db: Db, collectionId: string): Promise<UriCacheEntry | undefined> {
  const row = await db
    .selectFrom('collection_uri_cache')
    .selectAll()
    .where('collection_id', '=', collectionId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    collectionId: row.collection_id,
    metadataUri: row.metadata_uri,
    imageUrl: row.image_url,
    contentType: row.content_type,
    status: row.status,
    error: row.error,
    attempts: row.attempts,
    fetchedAt: row.fetched_at,
    expiresAt: row.expires_at,
  };
}

/**
 * Records one resolution attempt. `attempts` counts consecutive failures (reset by a success), so the
 * caller can back off a collection whose metadata host keeps failing.
 */
export async function saveUriCacheEntry(
  db: Db,
  entry: Omit<UriCacheEntry, 'attempts'>,
): Promise<UriCacheEntry> {
  const row = await db
    .insertInto('collection_uri_cache')
    .values({
      collection_id: entry.collectionId,
      metadata_uri: entry.metadataUri,
      image_url: entry.imageUrl,
      content_type: entry.contentType,
      status: entry.status,
      error: entry.error,
      attempts: entry.status === 'ok' ? 0 : 1,
      fetched_at: entry.fetchedAt,
      expires_at: entry.expiresAt,
    })
    .onConflict((oc) =>
      oc.column('collection_id').doUpdateSet((eb) => ({
        metadata_uri: eb.ref('excluded.metadata_uri'),
        image_url: eb.ref('excluded.image_url'),
        content_type: eb.ref('excluded.content_type'),
        status: eb.ref('excluded.status'),
        error: eb.ref('excluded.error'),
        attempts: entry.status === 'ok' ? sql<number>`0` : sql<number>`collection_uri_cache.attempts + 1`,
        fetched_at: eb.ref('excluded.fetched_at'),
        expires_at: eb.ref('excluded.expires_at'),
      })),
    )
    .returning('attempts')
    .executeTakeFirstOrThrow();
  return { ...entry, attempts: row.attempts };
}

/** Collections with a URI whose cache entry is missing or expired, oldest expiry first. */
export async function listUriCacheDue(db: Db, now: Date, limit: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    SELECT c.collection_id AS id FROM collections c
    LEFT JOIN collection_uri_cache u ON u.collection_id = c.collection_id
    WHERE c.uri IS NOT NULL AND c.uri <> '' AND (u.collection_id IS NULL OR u.expires_at IS NULL OR u.expires_at <= ${now})
    ORDER BY u.expires_at NULLS FIRST, c.collection_id
    LIMIT ${limit}
  `.execute(db);
  return rows.map((r) => r.id);
}
