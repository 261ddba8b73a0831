import { sql } from 'kysely';
import type { Db } from '../../database';

export interface TraitShare {
  traitType: string;
  value: string;
  /** Live tokens of the collection with this value. */
  count: number;
  /** count / live tokens of the collection, 0..1. */
  share: number;
}

/** Each trait of a token with how many tokens of its collection share the value. */
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
  const [{ rows }, { rows: size }, { rows: rarity }] = await Promise.all([
    sql<{ trait_type: string; value: string; count: number }>`
      SELECT a.trait_type, a.value,
             (SELECT count(*)::int FROM token_attributes x JOIN tokens t ON t.token_data_id = x.token_data_id
               WHERE x.collection_id = a.collection_id AND x.trait_type = a.trait_type AND x.value = a.value
                 AND NOT t.is_burned) AS count
        FROM token_attributes a
       WHERE a.token_data_id = ${tokenId}
       ORDER BY a.trait_type`.execute(db),
    sql<{ total: number }>`
      SELECT count(*)::int AS total FROM tokens WHERE collection_id = ${collectionId} AND NOT is_burned`.execute(
      db,
    ),
    sql<{
      rank: number;
      score: number;
    }>`SELECT rank, score FROM token_rarity WHERE token_data_id = ${tokenId}`.execute(db),
  ]);
  const collectionSize = size[0]?.total ?? 0;
  return {
    collectionSize,
    traits: rows.map((r) => ({
      traitType: r.trait_type,
      value: r.value,
      count: r.count,
      share: collectionSize > 0 ? Math.round((r.count / collectionSize) * 10_000) / 10_000 : 0,
    })),
    rarityRank: rarity[0]?.rank ?? null,
    rarityScore: rarity[0]?.score ?? null,
  };
}
