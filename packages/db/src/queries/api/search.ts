import { sql } from 'kysely';
import type { Db } from '../../database';

export interface CollectionHit {
  collectionId: string;
  collection: string;
  creator: string;
  collectionUrl: string | null;
  tokenStandard: string;
  score: number;
}

export interface TokenHit {
  tokenId: string;
  tokenName: string;
  tokenStandard: string;
  collection: string | null;
  collectionId: string;
  creator: string | null;
  tokenUri: string | null;
  score: number;
}

function likePattern(text: string, prefixOnly: boolean): string {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return prefixOnly ? `${escaped}%` : `%${escaped}%`;
}

/**
 * A trigram is three characters: a shorter text has none of its own to narrow a trigram index, and
 * it is contained in, or resembles, a large part of all names. Such a text is answered as a prefix
 * search instead (autocomplete), from an index whose order is the answer's.
 */
const TRIGRAM_LENGTH = 3;

interface TokenRow {
  token_data_id: string;
  token_name: string;
  token_standard: string;
  collection_name: string | null;
  collection_id: string;
  creator_address: string | null;
  token_uri: string | null;
  score: number;
}

/**
 * Search by name, collections and tokens separately (docs/API.md, "market/search"). Collections
 * (few) match when their name contains the text or is trigram-similar to it (pg_trgm `%`, threshold
 * 0.3), ranked exact name, then prefix, then similarity, then id. Tokens the same for a text of three
 * characters or more (`similarTokens`); for a shorter one, the names starting with it
 * (`tokensStartingWith`).
 */
export async function searchMarket(
  db: Db,
  text: string,
  limit: number,
): Promise<{ collections: CollectionHit[]; tokens: TokenHit[] }> {
  const q = text.trim();
  const [{ rows: collections }, tokens] = await Promise.all([
    sql<{
      collection_id: string;
      collection_name: string;
      creator_address: string;
      uri: string | null;
      token_standard: string;
      score: number;
    }>`
      SELECT collection_id, collection_name, creator_address, uri, token_standard,
             similarity(collection_name, ${q})::float8 AS score
        FROM collections
       WHERE collection_name % ${q} OR collection_name ILIKE ${likePattern(q, false)}
       ORDER BY lower(collection_name) = lower(${q}) DESC, collection_name ILIKE ${likePattern(q, true)} DESC,
                score DESC, collection_id
       LIMIT ${limit}`.execute(db),
    [...q].length < TRIGRAM_LENGTH ? tokensStartingWith(db, q, limit) : similarTokens(db, q, limit),
  ]);
  return {
    collections: collections.map((r) => ({
      collectionId: r.collection_id,
      collection: r.collection_name,
      creator: r.creator_address,
      collectionUrl: r.uri,
      tokenStandard: r.token_standard,
      score: Math.round(r.score * 1000) / 1000,
    })),
    tokens: tokens.map((r) => ({
      tokenId: r.token_data_id,
      tokenName: r.token_name,
      tokenStandard: r.token_standard,
      collection: r.collection_name,
      collectionId: r.collection_id,
      creator: r.creator_address,
      tokenUri: r.token_uri,
      score: Math.round(r.score * 1000) / 1000,
    })),
  };
}

/**
 * Tokens whose lowercased name starts with the lowercased text, in lowercased-name order (code point
 * by code point, so the exact name comes first), then id: the first `limit` entries of that range of
 * the (lower(name), id) btree, read in its order; no other name is scored or sorted.
 */
async function tokensStartingWith(db: Db, q: string, limit: number): Promise<TokenRow[]> {
  const { rows } = await sql<TokenRow>`
    SELECT t.token_data_id, t.token_name, t.token_standard,
           coalesce(t.collection_name, c.collection_name) AS collection_name, t.collection_id,
           coalesce(t.creator_address, c.creator_address) AS creator_address, t.token_uri,
           similarity(t.token_name, ${q})::float8 AS score
      FROM tokens t LEFT JOIN collections c ON c.collection_id = t.collection_id
     WHERE lower(t.token_name) LIKE lower(${likePattern(q, true)}) AND NOT t.is_burned
     ORDER BY lower(t.token_name) USING ~<~, t.token_data_id
     LIMIT ${limit}`.execute(db);
  return rows;
}

/**
 * Typo-tolerant token search for a text of three characters or more: a name matches when it contains
 * the text or is trigram-similar to it (pg_trgm `%`, threshold 0.3). Ranking: exact name, then prefix,
 * then trigram similarity, then id for a stable order.
 *
 * Tokens are many, and a short text matches most of them, so their hits are not found by scoring
 * every match: each tier's best `limit` names come from an index in rank order, and the final order
 * over their union is the one above. It holds the true top `limit`: a row ranked within the top
 * `limit` overall ranks within the top `limit` of the tier that found it, in the tier's order
 * (similarity, then id). The tiers:
 * - exact names, from lower(name) (a btree);
 * - names starting with the text, from the same btree as a range (`lower(name) LIKE 'text%'`, which
 *   is how Postgres evaluates ILIKE on UTF-8), each scored; when there are `limit` of them every
 *   other hit ranks below, and the tiers after are not read at all (one-time filters);
 * - similar names (`%`), from the GiST trigram index walked nearest first (`<->` is 1 − similarity),
 *   with ties at the cut;
 * - names containing the text: the nearest `limit` (`near`); if the `limit`-th still shares a
 *   trigram with the text, the ties at its distance as well; if it shares none (similarity 0, as for
 *   most names containing one letter), every closer name is already in `near` and the rest rank by
 *   id alone, so the first `limit` by id complete the tier without scoring the thousands that tie.
 */
async function similarTokens(db: Db, q: string, limit: number): Promise<TokenRow[]> {
  const contains = likePattern(q, false);
  const prefix = likePattern(q, true);
  const { rows } = await sql<TokenRow>`
    WITH exact AS MATERIALIZED (
      -- Materialized, so that these are read from the lower(name) btree: offered ORDER BY id LIMIT,
      -- the planner walked the whole primary key instead on the 1M chain (2.7 s for 'wizard').
      SELECT token_data_id FROM tokens WHERE lower(token_name) = lower(${q}) AND NOT is_burned
    ), starting AS MATERIALIZED (
      -- The names starting with the text, as a range of the same btree; materialized for the same
      -- reason (offered ORDER BY distance, the planner walked the GiST index: 0.9 s for 'a' at 1M).
      -- ILIKE as a recheck only (IS TRUE): for a one-letter pattern the GiST index is a full pass.
      SELECT token_data_id, token_name FROM tokens
       WHERE lower(token_name) LIKE lower(${prefix}) AND (token_name ILIKE ${prefix}) IS TRUE AND NOT is_burned
    ), prefixed AS (
      SELECT token_data_id FROM starting ORDER BY token_name <-> ${q} FETCH FIRST (${limit}) ROWS WITH TIES
    ), more AS (
      SELECT count(*) < ${limit} AS needed FROM prefixed
    ), near AS (
      SELECT token_data_id, token_name <-> ${q} AS distance FROM tokens
       WHERE token_name ILIKE ${contains} AND NOT is_burned AND (SELECT needed FROM more)
       ORDER BY token_name <-> ${q} LIMIT ${limit}
    ), cut AS (
      SELECT count(*) = ${limit} AND max(distance) < 1 AS tied, count(*) = ${limit} AND max(distance) >= 1 AS unscored
        FROM near
    ), hits AS (
      (SELECT token_data_id FROM exact ORDER BY token_data_id LIMIT ${limit})
      UNION
      SELECT token_data_id FROM prefixed
      UNION
      (SELECT token_data_id FROM tokens
        WHERE token_name % ${q} AND NOT is_burned AND (SELECT needed FROM more)
        ORDER BY token_name <-> ${q} FETCH FIRST (${limit}) ROWS WITH TIES)
      UNION
      SELECT token_data_id FROM near
      UNION
      (SELECT token_data_id FROM tokens
        WHERE token_name ILIKE ${contains} AND NOT is_burned AND (SELECT tied FROM cut)
        ORDER BY token_name <-> ${q} FETCH FIRST (${limit}) ROWS WITH TIES)
      UNION
      (SELECT token_data_id FROM tokens
        WHERE token_name ILIKE ${contains} AND NOT is_burned AND token_name <-> ${q} >= 1 AND (SELECT unscored FROM cut)
        ORDER BY token_data_id LIMIT ${limit})
    )
    SELECT t.token_data_id, t.token_name, t.token_standard,
           coalesce(t.collection_name, c.collection_name) AS collection_name, t.collection_id,
           coalesce(t.creator_address, c.creator_address) AS creator_address, t.token_uri,
           similarity(t.token_name, ${q})::float8 AS score
      FROM hits JOIN tokens t USING (token_data_id) LEFT JOIN collections c ON c.collection_id = t.collection_id
     ORDER BY lower(t.token_name) = lower(${q}) DESC, t.token_name ILIKE ${prefix} DESC, score DESC, t.token_data_id
     LIMIT ${limit}`.execute(db);
  return rows;
}
