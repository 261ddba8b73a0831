import type { Db } from '@mdq/db';
import {
  type CollectionSet,
  collectionExists,
  findCollections,
  findLootbox,
  findLootboxById,
  type Lootbox,
  type LootboxKey,
} from '@mdq/db/read';
import { ApiError } from '../plugins/errors';

/** Ids of the collection (creator, name), or a 404 naming it. */
export async function collectionIdsOf(db: Db, creator: string, collection: string): Promise<string[]> {
  const found = await findCollections(db, creator, collection);
  if (found.length === 0) {
    throw new ApiError(404, 'COLLECTION_NOT_FOUND', `no collection '${collection}' by creator ${creator}`);
  }
  return found.map((c) => c.collectionId);
}

/** The collection id itself when a collection has it, or the 404 naming it. */
export async function knownCollectionId(db: Db, collectionId: string): Promise<string> {
  if (await collectionExists(db, collectionId)) return collectionId;
  throw new ApiError(404, 'COLLECTION_NOT_FOUND', `no collection ${collectionId}`);
}

/**
 * What findLootboxWithTiers reads, each by the lootbox's id (its row by id or by pair): the cache
 * key of `/lootbox` and `/rarities-by-lootbox`, on the lootbox's own counters.
 */
export const LOOTBOX_WITH_TIERS_TABLES = ['lootbox_tiers', 'lootboxes'] as const;

/** What a lookup of `key` found, or the 404 naming the lootbox. */
export function foundLootbox<T>(lootbox: T | null, key: LootboxKey): T {
  if (lootbox) return lootbox;
  throw new ApiError(
    404,
    'LOOTBOX_NOT_FOUND',
    'lootboxId' in key
      ? `no lootbox ${key.lootboxId}`
      : `no lootbox '${key.collection}' by creator ${key.creator}`,
  );
}

/** The lootbox `key` names (the newest when a creator reused a name), or the 404 naming it. */
export async function knownLootbox(db: Db, key: LootboxKey, now?: Date): Promise<Lootbox> {
  return foundLootbox(
    'lootboxId' in key
      ? await findLootboxById(db, key.lootboxId, now)
      : await findLootbox(db, key.creator, key.collection, now),
    key,
  );
}

/** What a token lookup found, or the 404 saying which token (`named`). */
export function foundToken<T>(token: T | null, named: string): T {
  if (token) return token;
  throw new ApiError(404, 'TOKEN_NOT_FOUND', named);
}

/**
 * A page read through a subject (a collection pair, a lootbox, a token) resolved inside its own
 * statement is empty both when there is no such subject and when the page is past the end: only
 * then does `check` look the subject up, throwing its 404, so that a page with rows costs its one
 * statement.
 */
export async function ofKnownSubject<P extends { data: unknown[] }>(
  page: P,
  check: () => Promise<unknown>,
): Promise<P> {
  if (page.data.length === 0) await check();
  return page;
}

/** ofKnownSubject for a page of a CollectionSet: only a (creator, name) pair has a 404 to give. */
export function inKnownCollections<P extends { data: unknown[] }>(
  db: Db,
  collections: CollectionSet,
  page: P,
): Promise<P> {
  return 'creator' in collections
    ? ofKnownSubject(page, () => collectionIdsOf(db, collections.creator, collections.name))
    : Promise.resolve(page);
}

/**
 * The market routes' rule as the collections a list reads: the pair (creator, collection),
 * resolved inside the list's own statement (see inKnownCollections), or lootboxId.
 */
export async function collectionsOfPairOrLootbox(
  db: Db,
  query: { creator?: string | undefined; collection?: string | undefined; lootboxId?: number | undefined },
): Promise<CollectionSet> {
  if (query.creator !== undefined && query.collection !== undefined) {
    return { creator: query.creator, name: query.collection };
  }
  return collectionIdsOfPairOrLootbox(db, query);
}

/** The market routes' rule: the pair (creator, collection) or lootboxId. */
export async function collectionIdsOfPairOrLootbox(
  db: Db,
  query: { creator?: string | undefined; collection?: string | undefined; lootboxId?: number | undefined },
): Promise<string[]> {
  if (query.creator !== undefined && query.collection !== undefined) {
    return collectionIdsOf(db, query.creator, query.collection);
  }
  if (query.lootboxId !== undefined)
    return [(await knownLootbox(db, { lootboxId: query.lootboxId })).collectionId];
  throw new ApiError(
    400,
    'MISSING_PARAMETER',
    "provide either both 'creator' and 'collection', or 'lootboxId'",
  );
}
