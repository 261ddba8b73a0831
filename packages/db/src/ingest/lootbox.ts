import { sql } from 'kysely';
import type { Db } from '../database';
import { lastByKey, unnestInsert } from './bulk';
import type { IngestBatch } from './types';

export async function writeLootboxes(db: Db, batch: IngestBatch): Promise<number> {
  let written = await unnestInsert(
    db,
    'lootboxes',
    {
      lootbox_id: 'bigint',
      creator_address: 'text',
      collection_name: 'text',
      collection_id: 'text',
      price: 'numeric',
      coin_type: 'text',
      max_supply: 'numeric',
      mint_start: 'timestamptz',
      mint_end: 'timestamptz',
      created_at: 'timestamptz',
      created_version: 'bigint',
      last_transaction_version: 'bigint',
    },
    lastByKey(batch.lootboxes, (r) => String(r.lootbox_id)),
    `ON CONFLICT (lootbox_id) DO UPDATE SET
       creator_address = excluded.creator_address, collection_name = excluded.collection_name,
       collection_id = excluded.collection_id, max_supply = excluded.max_supply,
       created_at = excluded.created_at, created_version = excluded.created_version
     WHERE lootboxes.created_version >= excluded.created_version`,
  );
  written += await unnestInsert(
    db,
    'lootbox_tiers',
    {
      lootbox_id: 'bigint',
      tier_name: 'text',
      position: 'integer',
      weight: 'numeric',
      max_supply: 'numeric',
    },
    lastByKey(batch.lootboxTiers, (r) => `${r.lootbox_id}|${r.tier_name}`),
    `ON CONFLICT (lootbox_id, tier_name) DO UPDATE SET position = excluded.position, weight = excluded.weight,
       max_supply = excluded.max_supply`,
  );
  const updates = lastByKey(batch.lootboxUpdates, (r) => String(r.lootbox_id));
  if (updates.length > 0) {
    const result = await sql`
      UPDATE lootboxes l SET price = u.price, mint_start = u.mint_start, mint_end = u.mint_end, paused = u.paused,
        last_transaction_version = u.version
      FROM unnest(${updates.map((u) => u.lootbox_id)}::bigint[], ${updates.map((u) => u.price)}::numeric[],
                  ${updates.map((u) => u.mint_start)}::timestamptz[], ${updates.map((u) => u.mint_end)}::timestamptz[],
                  ${updates.map((u) => u.paused)}::boolean[], ${updates.map((u) => u.last_transaction_version)}::bigint[])
        AS u(lootbox_id, price, mint_start, mint_end, paused, version)
      WHERE l.lootbox_id = u.lootbox_id AND l.last_transaction_version <= u.version
    `.execute(db);
    written += Number(result.numAffectedRows ?? 0);
  }
  written += await unnestInsert(
    db,
    'lootbox_purchases',
    {
      transaction_version: 'bigint',
      event_index: 'integer',
      lootbox_id: 'bigint',
      buyer: 'text',
      quantity: 'numeric',
      amount_paid: 'numeric',
      coin_type: 'text',
      transaction_timestamp: 'timestamptz',
    },
    batch.lootboxPurchases,
    'ON CONFLICT (transaction_version, event_index) DO NOTHING',
  );
  written += await unnestInsert(
    db,
    'lootbox_reveals',
    {
      transaction_version: 'bigint',
      event_index: 'integer',
      lootbox_id: 'bigint',
      owner_address: 'text',
      token_data_id: 'text',
      tier: 'text',
      transaction_timestamp: 'timestamptz',
    },
    batch.lootboxReveals,
    'ON CONFLICT (transaction_version, event_index) DO NOTHING',
  );
  return written;
}

/**
 * Counters are recounted for the lootboxes a batch touched, from the per-day purchase sums that
 * the purchases' triggers keep (a lootbox's days, not its every purchase) and from the reveals: a
 * replay or an overlapping run cannot double-count.
 */
export async function refreshLootboxCounters(
  db: Db,
  lootboxIds: readonly number[],
  revealedTokens: readonly string[],
): Promise<void> {
  if (lootboxIds.length === 0) return;
  const ids = [...lootboxIds];
  await sql`
    UPDATE lootboxes l SET
      purchased = COALESCE((SELECT sum(d.quantity) FROM lootbox_revenue_days d WHERE d.lootbox_id = l.lootbox_id), 0),
      revenue = COALESCE((SELECT sum(d.amount) FROM lootbox_revenue_days d WHERE d.lootbox_id = l.lootbox_id), 0),
      minted = (SELECT count(*) FROM lootbox_reveals r WHERE r.lootbox_id = l.lootbox_id)
    WHERE l.lootbox_id = ANY(${ids}::bigint[])
  `.execute(db);
  await sql`
    UPDATE lootbox_tiers t SET minted = (
      SELECT count(*) FROM lootbox_reveals r WHERE r.lootbox_id = t.lootbox_id AND r.tier = t.tier_name)
    WHERE t.lootbox_id = ANY(${ids}::bigint[])
  `.execute(db);
  // Tokens and collections learn which lootbox they came from, for the token/lootbox endpoints.
  // Only this batch's reveals: joining every reveal of the lootbox would grow with its history.
  if (revealedTokens.length > 0) {
    await sql`
      UPDATE tokens t SET lootbox_id = r.lootbox_id, lootbox_tier = r.tier
      FROM lootbox_reveals r
      WHERE r.token_data_id = ANY(${[...revealedTokens]}::text[]) AND t.token_data_id = r.token_data_id
        AND (t.lootbox_id IS DISTINCT FROM r.lootbox_id OR t.lootbox_tier IS DISTINCT FROM r.tier)
    `.execute(db);
  }
  await sql`
    UPDATE collections c SET lootbox_id = l.lootbox_id
    FROM lootboxes l
    WHERE l.lootbox_id = ANY(${ids}::bigint[]) AND c.collection_id = l.collection_id
      AND c.lootbox_id IS DISTINCT FROM l.lootbox_id
  `.execute(db);
}
