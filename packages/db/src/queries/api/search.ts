import type { SearchResult } from '@mdq/contracts';
import { sql } from 'kysely';
import type { Db } from '../../database';
import { executePrepared } from '../../prepared';

export type CollectionHit = SearchResult['collections'][number];

export type TokenHit = SearchResult['tokens'][number];

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function likePattern(text: string, prefixOnly: boolean): string {
  return prefixOnly ? `${escapeLike(text)}%` : `%${escapeLike(text)}%`;
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
  const [collections, tokens] = await Promise.all([
    // Prepared, like the token search: its plan does not depend on the text (a bitmap of the
    // collections' trigram index, or a scan of a table this small).
    executePrepared(
      db,
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
       LIMIT ${limit}`,
    ),
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
  // A blank text (spaces only, trimmed away) starts every name: no upper bound.
  const below = q === '' ? sql`` : sql`AND lower(t.token_name) ~<~ text_prefix_upper(lower(${q}))`;
  return executePrepared(
    db,
    sql<TokenRow>`
    SELECT t.token_data_id, t.token_name, t.token_standard,
           coalesce(t.collection_name, c.collection_name) AS collection_name, t.collection_id,
           coalesce(t.creator_address, c.creator_address) AS creator_address, t.token_uri,
           similarity(t.token_name, ${q})::float8 AS score
      FROM tokens t LEFT JOIN collections c ON c.collection_id = t.collection_id
     WHERE lower(t.token_name) ~>=~ lower(${q}) ${below} AND NOT t.is_burned
     ORDER BY lower(t.token_name) USING ~<~, t.token_data_id
     LIMIT ${limit}`,
  );
}

/**
 * Typo-tolerant token search for a text of three characters or more (docs/API.md, "market/search").
 * A token's stem is its lowercased name without the digits that end it (`token_name_stem`: "Shadow
 * Dragon #12" → "shadow dragon #"); the text's stem likewise, and its number the digits that end it.
 * A live token matches when its lowercased name
 * - equals the lowercased text (exact), or starts with it (prefix), or
 * - contains it, an occurrence starting before or where the name's number starts (so "123" finds
 *   "#123" and "#1234", not "#5123"), or
 * - has a stem trigram-similar to the text's stem (pg_trgm similarity ≥ 0.3).
 * Ranking: exact names by id; then prefixed names in lowercased-name order (code point by code
 * point), then id; then the rest by their stem's similarity, those whose number starts with the
 * text's number first, then lowercased-name order, then id.
 *
 * Stems are few (token_name_stems, migration 2026-11-28T1300), so the matching stems are found there,
 * and their tokens are read from the (lower(name), id) btree as ranges in its order, each cut at the
 * limit; no token name is scored beyond those. A name is its stem followed by digits, and ':' is the
 * character after '9', so a stem's tokens lie in [stem, stem || ':'), and those whose number starts
 * with the text's number in [stem || number, stem || number || ':'), whose complement in the stem is
 * the two ranges either side. A name in a range with more than digits after the stem belongs to
 * another stem, and is filtered out. The text's occurrences that cross into a name's number need
 * the stem to end with the text's stem and the number to start with the text's number; those inside
 * the stem need the stem to contain the text (then every token of the stem matches).
 *
 * It holds the true top `limit`: each source (exact names; prefixed names; per stem, each range)
 * is read in the final order restricted to it, so a row of the answer is among the first `limit`
 * of the source that holds it: the rows before it in that source all rank before it too.
 */
async function similarTokens(db: Db, q: string, limit: number): Promise<TokenRow[]> {
  const textStem = q.replace(/[0-9]+$/, '');
  const number = q.slice(textStem.length);
  // The ranges of a stem `s` to read, [from, to) each, and whether their names' numbers start with
  // the text's number (ranked first within the stem). Without a number, one range: the whole stem.
  const ranges =
    number === ''
      ? [{ whole: true, numbered: false, from: sql`s.stem`, to: sql`s.stem || ':'` }]
      : [
          {
            whole: false,
            numbered: true,
            from: sql`s.stem || ${number}`,
            to: sql`s.stem || ${number} || ':'`,
          },
          { whole: true, numbered: false, from: sql`s.stem`, to: sql`s.stem || ${number}` },
          { whole: true, numbered: false, from: sql`s.stem || ${number} || ':'`, to: sql`s.stem || ':'` },
        ];
  // Once the prefixed names fill the page, every other hit ranks below them: no stem is read
  // (a one-time filter).
  const stemReads = ranges.map(
    (r) => sql`
      SELECT t.token_data_id, t.lowered, s.sim, ${sql.lit(r.numbered)} FROM stems s CROSS JOIN LATERAL (
        SELECT token_data_id, lower(token_name) AS lowered FROM tokens
         WHERE lower(token_name) ~>=~ (${r.from}) AND lower(token_name) ~<~ (${r.to}) AND NOT is_burned
           AND substr(lower(token_name), length(s.stem) + 1) ~ '^[0-9]*$'
         ORDER BY lower(token_name) USING ~<~, token_data_id LIMIT ${limit}) t
       WHERE (SELECT needed FROM more) ${r.whole ? sql`AND s.whole` : sql``}`,
  );
  return executePrepared(
    db,
    sql<TokenRow>`
    WITH stems AS MATERIALIZED (
      SELECT stem, similarity(stem, token_name_stem(${q})) AS sim,
             similarity(stem, token_name_stem(${q})) >= 0.3 OR strpos(stem, lower(${q})) > 0 AS whole
        FROM token_name_stems
       WHERE live_count > 0
         AND (stem % token_name_stem(${q}) OR stem LIKE lower(${likePattern(q, false)})
              ${number === '' ? sql`` : sql`OR stem LIKE lower(${`%${escapeLike(textStem)}`})`})
    ), prefixed AS MATERIALIZED (
      SELECT token_data_id, lower(token_name) AS lowered FROM tokens
       WHERE lower(token_name) ~>=~ lower(${q}) AND lower(token_name) ~<~ text_prefix_upper(lower(${q}))
         AND NOT is_burned
       ORDER BY lower(token_name) USING ~<~, token_data_id LIMIT ${limit}
    ), more AS (
      SELECT count(*) < ${limit} AS needed FROM prefixed
    ), hits (token_data_id, lowered, sim, numbered) AS (
      -- The exact names are the first of the prefixed ones, in id order (equal names).
      SELECT token_data_id, lowered, 0::real, false FROM prefixed
      UNION ALL
      ${sql.join(stemReads, sql` UNION ALL `)}
    ), ranked AS (
      -- A name found twice (prefixed, and in its stem) is one hit; the rank's keys come from the
      -- name and its stem alone, so both copies carry the same.
      SELECT token_data_id, lowered, max(sim) AS sim, bool_or(numbered) AS numbered,
             CASE WHEN lowered = lower(${q}) THEN 0 WHEN starts_with(lowered, lower(${q})) THEN 1 ELSE 2 END AS tier
        FROM hits GROUP BY token_data_id, lowered
    ), top AS (
      SELECT token_data_id, lowered, tier,
             CASE WHEN tier = 2 THEN sim ELSE 0 END AS sim, tier = 2 AND numbered AS numbered
        FROM ranked
       ORDER BY tier, 4 DESC, 5 DESC, lowered USING ~<~, token_data_id
       LIMIT ${limit}
    )
    -- Only the page's rows are read from the table, each by primary key (OFFSET 0 keeps the
    -- subquery from being flattened into a join the planner could hash over a scan of tokens).
    SELECT t.token_data_id, t.token_name, t.token_standard,
           coalesce(t.collection_name, c.collection_name) AS collection_name, t.collection_id,
           coalesce(t.creator_address, c.creator_address) AS creator_address, t.token_uri,
           similarity(token_name_stem(t.token_name), token_name_stem(${q}))::float8 AS score
      FROM top h
      CROSS JOIN LATERAL (SELECT * FROM tokens t WHERE t.token_data_id = h.token_data_id OFFSET 0) t
      LEFT JOIN collections c ON c.collection_id = t.collection_id
     ORDER BY h.tier, h.sim DESC, h.numbered DESC, h.lowered USING ~<~, h.token_data_id`,
  );
}
