import { sql } from 'kysely';
import type { Db } from '../../database';
import { unnestInsert } from '../../ingest/bulk';

/** Collections with at least one stored trait (index-backed probe per collection). */
export async function listCollectionsWithTraits(db: Db): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    SELECT c.collection_id AS id FROM collections c
    WHERE EXISTS (SELECT 1 FROM token_attributes a WHERE a.collection_id = c.collection_id)
    ORDER BY c.collection_id
  `.execute(db);
  return rows.map((r) => r.id);
}

export interface RarityInput {
  /** Every live (not burned) token of the collection: the population rarity is measured in. */
  tokenIds: string[];
  traits: { tokenId: string; traitType: string; value: string }[];
}

export async function loadRarityInput(db: Db, collectionId: string): Promise<RarityInput> {
  const tokens = await db
    .selectFrom('tokens')
    .select('token_data_id')
    .where('collection_id', '=', collectionId)
    .where('is_burned', '=', false)
    .orderBy('token_data_id')
    .execute();
  const { rows } = await sql<{ tokenId: string; traitType: string; value: string }>`
    SELECT a.token_data_id AS "tokenId", a.trait_type AS "traitType", a.value
    FROM token_attributes a JOIN tokens t ON t.token_data_id = a.token_data_id
    WHERE a.collection_id = ${collectionId} AND NOT t.is_burned
  `.execute(db);
  return { tokenIds: tokens.map((t) => t.token_data_id), traits: rows };
}

export interface TokenRarityRow {
  tokenId: string;
  score: number;
  rank: number;
  traitCount: number;
}

/** Replaces a collection's rarity rows in one transaction (burned tokens drop out). */
export async function replaceTokenRarity(
  db: Db,
  collectionId: string,
  rows: readonly TokenRarityRow[],
  computedAt: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`mdq:rarity:${collectionId}`}))`.execute(trx);
    await trx.deleteFrom('token_rarity').where('collection_id', '=', collectionId).execute();
    await unnestInsert(
      trx,
      'token_rarity',
      {
        token_data_id: 'text',
        collection_id: 'text',
        score: 'double precision',
        rank: 'integer',
        trait_count: 'integer',
        computed_at: 'timestamptz',
      },
      [...rows]
        .sort((a, b) => (a.tokenId < b.tokenId ? -1 : a.tokenId > b.tokenId ? 1 : 0))
        .map((r) => ({
          token_data_id: r.tokenId,
          collection_id: collectionId,
          score: r.score,
          rank: r.rank,
          trait_count: r.traitCount,
          computed_at: computedAt,
        })),
      // A token moved between collections would still hold its old row; the newest computation wins.
      `ON CONFLICT (token_data_id) DO UPDATE SET collection_id = excluded.collection_id, score = excluded.score,
       rank = excluded.rank, trait_count = excluded.trait_count, computed_at = excluded.computed_at`,
    );
  });
}

export interface LootboxTierTableRow {
  tierName: string;
  position: number;
  weight: string;
  /** weight / sum of the lootbox's weights; 0 when all weights are 0. */
  probability: number;
  maxSupply: string;
  minted: string;
}

/** The lootbox rarity table: tiers in contract order with weights, draw probabilities, supply and minted. */
export async function loadLootboxTierTable(db: Db, lootboxId: number): Promise<LootboxTierTableRow[]> {
  const { rows } = await sql<LootboxTierTableRow>`
    SELECT tier_name AS "tierName", position, weight::text AS weight,
           COALESCE((weight / NULLIF(sum(weight) OVER (), 0))::float8, 0) AS probability,
           max_supply::text AS "maxSupply", minted::text AS minted
    FROM lootbox_tiers WHERE lootbox_id = ${lootboxId}
    ORDER BY position, tier_name
  `.execute(db);
  return rows;
}
