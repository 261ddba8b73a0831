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

/**
 * ofTokenCollection for a read by a token's id alone: the collection is the token's stored one,
 * and a token not stored states none (every row then; its page keys on the global counters).
 */
export function ofStoredTokenCollection(column: string, tokenId: string): RawBuilder<boolean> {
  const stored = sql`(SELECT s.collection_id FROM tokens s WHERE s.token_data_id = ${tokenId})`;
  return sql<boolean>`(${stored} IS NULL OR ${ofTokenCollection(column, stored)})`;
}
