import { type RawBuilder, sql } from 'kysely';

/**
 * True when the token `column` names is not burned (a token missing from `tokens` is not burned):
 * an anti-join against the small partial index of burned tokens (tokens_burned, migration
 * 2026-11-29T1000), where a join with `tokens` probed its primary key once per row.
 */
export function notBurned(column: string, collectionColumn?: string): RawBuilder<boolean> {
  // A listing's token is of the listing's collection: stating it (`collectionColumn`) changes no
  // answer, and makes the read one by collection, which a collection page's cache key relies on
  // (its collection's write counters, apps/api read-tables test).
  const sameCollection =
    collectionColumn === undefined ? sql`` : sql` AND burned.collection_id = ${sql.ref(collectionColumn)}`;
  return sql<boolean>`NOT EXISTS (SELECT 1 FROM tokens burned WHERE burned.token_data_id = ${sql.ref(column)} AND burned.is_burned${sameCollection})`;
}

/*
 * (holder, collection_id, token_data_id) for every token held now: positive balances plus tokens
 * listed by their seller (a listing may keep the token in escrow; it is still the seller's).
 * Burned tokens are held by no one. A triple can appear twice (a v1 token's property versions), so
 * readers count DISTINCT.
 *
 * Written as UNION ALL with the listings that the seller does not also hold (one index probe per
 * active listing) and an anti-join on burned tokens, instead of a UNION that sorted every
 * ownership to drop duplicates and a join of every ownership with tokens: the collection snapshot's
 * holder counts on the 1M chain went from ~3.0 s to ~1.0 s with the same answer (docs/PERFORMANCE.md).
 */
export const holdingsSql = sql`
  SELECT h.holder, h.collection_id, h.token_data_id FROM (
    SELECT owner_address AS holder, collection_id, token_data_id FROM token_ownerships WHERE amount > 0
    UNION ALL
    SELECT l.seller, l.collection_id, l.token_data_id FROM listings l
     WHERE l.status = 'active' AND l.seller IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM token_ownerships o
                        WHERE o.token_data_id = l.token_data_id AND o.owner_address = l.seller AND o.amount > 0)
  ) h
  WHERE ${notBurned('h.token_data_id')}`;

/**
 * (holder, collection_id, n): how many distinct tokens of each collection each wallet holds, by
 * holdingsSql's rule. A collection's holders are its rows; a wallet's inventory is the sum of its.
 */
export const heldSql = sql`
  SELECT hs.holder, hs.collection_id, count(DISTINCT hs.token_data_id)::int AS n
  FROM (${holdingsSql}) hs
  GROUP BY hs.holder, hs.collection_id`;
