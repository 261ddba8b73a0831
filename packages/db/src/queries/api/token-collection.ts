import { type RawBuilder, sql } from 'kysely';

/**
 * True for a token's row (a listing, offer, ownership or activity) read by the token's id: each is
 * of the token's collection, or stored without one (the transaction did not name it), and
 * functions/bump_token_row_collection_version.sql counts those for the token's collection too.
 * Stated on such a read it changes no answer, and makes the read one by collection: a token's
 * page keys on its collection's write counters (the API's read-tables test checks every read of a
 * collection-keyed page names the collection). `collection` may be a scalar subquery that finds
 * none (storedCollectionOf, collectionIdOfName for a token not stored): every row counts then, and
 * the page keys on the global counters or has no rows. One COALESCE, so the subquery is written
 * once and the planner keeps the condition a filter on the token's own index.
 */
export function ofTokenCollection(column: string, collection: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`COALESCE(${sql.ref(column)} = ${collection}, true)`;
}

/** A token's stored collection, as a scalar subquery (null for a token not stored). */
export function storedCollectionOf(tokenId: string): RawBuilder<string | null> {
  return sql<string | null>`(SELECT s.collection_id FROM tokens s WHERE s.token_data_id = ${tokenId})`;
}
