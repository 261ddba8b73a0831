import { type RawBuilder, sql } from 'kysely';

/**
 * True for a token's row (a listing, offer, ownership or activity) read by the token's id: each is
 * of the token's collection, or stored without one (the transaction did not name it), and
 * functions/bump_token_row_collection_version.sql counts those for the token's collection too.
 * Stated on such a read it changes no answer, and makes the read one by collection: a token's
 * page keys on its collection's write counters (the API's read-tables test checks every read of a
 * collection-keyed page names the collection). An OR, so the planner keeps it a filter on the
 * token's own index rather than reading the collection's.
 */
export function ofTokenCollection(column: string, collection: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(column)} = ${collection} OR ${sql.ref(column)} IS NULL)`;
}

/** A token's stored collection, as a scalar subquery (null for a token not stored). */
export function storedCollectionOf(tokenId: string): RawBuilder<string | null> {
  return sql<string | null>`(SELECT s.collection_id FROM tokens s WHERE s.token_data_id = ${tokenId})`;
}

/**
 * ofTokenCollection where the token's collection comes from a scalar subquery (storedCollectionOf,
 * collectionIdOfName): a token not found states none, and every row of it counts (its page then
 * keys on the global counters, or has no rows).
 */
export function ofFoundTokenCollection(column: string, collection: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`(${collection} IS NULL OR ${ofTokenCollection(column, collection)})`;
}
