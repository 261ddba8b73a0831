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

export async function lootboxByName(
  db: Db,
  creator: string,
  collection: string,
  now?: Date,
): Promise<Lootbox> {
  return foundLootbox(await findLootbox(db, creator, collection, now), { creator, collection });
}

async function lootboxById(db: Db, lootboxId: number, now?: Date): Promise<Lootbox> {
  return foundLootbox(await findLootboxById(db, lootboxId, now), { lootboxId });
}

/**
 * A page read through a (creator, name) CollectionSet is empty both when no collection has that
 * name and when the page is past the end: only then is the name looked up, so that the first case
 * is still a 404 naming it while a page with rows costs its one statement.
 */
export async function inKnownCollections<P extends { data: unknown[] }>(
  db: Db,
  collections: CollectionSet,
  page: P,
): Promise<P> {
  if (page.data.length === 0 && 'creator' in collections) {
    await collectionIdsOf(db, collections.creator, collections.name);
  }
  return page;
}

/**
 * A page read through a lootbox key resolved inside its statement (tokensOfLootbox) is empty both
 * when there is no such lootbox and when it has no such rows: only then is the lootbox looked up,
 * for the 404 naming it.
 */
export async function inKnownLootbox<P extends { data: unknown[] }>(
  db: Db,
  key: LootboxKey,
  page: P,
): Promise<P> {
  if (page.data.length === 0) {
    foundLootbox(
      'lootboxId' in key
        ? await findLootboxById(db, key.lootboxId)
        : await findLootbox(db, key.creator, key.collection),
      key,
    );
  }
  return page;
}

/** The same for a token's page read through its id or name: a 404 naming the token only when empty. */
export async function ofKnownToken<P extends { data: unknown[] }>(
  page: P,
  find: () => Promise<unknown>,
  notFound: string,
): Promise<P> {
  if (page.data.length === 0 && !(await find())) throw new ApiError(404, 'TOKEN_NOT_FOUND', notFound);
  return page;
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
  if (query.lootboxId !== undefined) return [(await lootboxById(db, query.lootboxId)).collectionId];
  throw new ApiError(
    400,
    'MISSING_PARAMETER',
    "provide either both 'creator' and 'collection', or 'lootboxId'",
  );
}
