import type { TokenTraits } from '@mdq/contracts';
import { sql } from 'kysely';
import type { Db } from '../../database';
import { executePrepared } from '../../prepared';

export type TraitShare = TokenTraits['traits'][number];

/**
 * Each trait of a token with how many live tokens of its collection share the value: one statement
 * of primary-key lookups, the counts read from what the database keeps (trait_value_counts and
 * collection_trait_totals, kept in the indexer's transactions), not counted per request.
 */
export async function tokenTraits(
  db: Db,
  tokenId: string,
  collectionId: string,
): Promise<{
  collectionSize: number;
  traits: TraitShare[];
  rarityRank: number | null;
  rarityScore: number | null;
}> {
  // Key lookups by the token's id: prepared, planned once per connection. The token's rows are its
  // collection's; stated, so the page reads by collection (its cache key is the collection's counters).
  const rows = await executePrepared(
    db,
    sql<{
      size: number | null;
      rank: number | null;
      score: number | null;
      traits: { trait_type: string; value: string; source: 'chain' | 'document'; count: number }[];
    }>`
    SELECT (SELECT live_tokens FROM collection_trait_totals WHERE collection_id = ${collectionId}) AS size,
           r.rank, r.score,
           COALESCE((
             SELECT json_agg(json_build_object('trait_type', a.trait_type, 'value', a.value, 'source', a.source,
                                               'count', COALESCE(c.live_count, 0)) ORDER BY a.trait_type)
               FROM token_attributes a
               LEFT JOIN trait_value_counts c
                 ON c.collection_id = a.collection_id AND c.trait_type = a.trait_type AND c.value = a.value
              WHERE a.token_data_id = ${tokenId} AND a.collection_id = ${collectionId}), '[]') AS traits
      FROM (SELECT ${tokenId}::text AS token_data_id) t
      LEFT JOIN token_rarity r ON r.token_data_id = t.token_data_id AND r.collection_id = ${collectionId}`,
  );
  const row = rows[0];
  const collectionSize = row?.size ?? 0;
  return {
    collectionSize,
    traits: (row?.traits ?? []).map((r) => ({
      traitType: r.trait_type,
      value: r.value,
      source: r.source,
      count: r.count,
      share: collectionSize > 0 ? Math.round((r.count / collectionSize) * 10_000) / 10_000 : 0,
    })),
    rarityRank: row?.rank ?? null,
    rarityScore: row?.score ?? null,
  };
}
