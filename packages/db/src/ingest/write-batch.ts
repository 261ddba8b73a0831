import { sql } from 'kysely';
import type { Db } from '../database';
import { unnestInsert } from './bulk';
import {
  resolveOwners,
  writeBurns,
  writeCollections,
  writeOwnerships,
  writePendingClaims,
  writeTableHandles,
  writeTokenActivities,
  writeTokens,
} from './chain-state';
import { refreshLootboxCounters, writeLootboxes } from './lootbox';
import { writeCollectionOffers, writeListings, writeMarketActivities, writeTokenOffers } from './market';
import type { IngestBatch, IngestResult } from './types';

/**
 * Writes every row of a batch and its checkpoint in ONE transaction: a crash at any point leaves
 * either the whole batch or none of it, so a restart from the checkpoint neither loses nor repeats.
 */
export async function writeBatch(db: Db, batch: IngestBatch): Promise<IngestResult> {
  return db.transaction().execute(async (trx) => {
    let rows = 0;
    rows += await writeCollections(trx, batch);
    rows += await writeTokens(trx, batch);
    rows += await writeTableHandles(trx, batch);
    const owners = await resolveOwners(trx, batch);
    rows += await writeOwnerships(trx, owners.rows);
    rows += await writePendingClaims(trx, batch);
    rows += await writeTokenActivities(trx, batch);
    rows += await writeMarketActivities(trx, batch);
    rows += await writeListings(trx, batch);
    rows += await writeTokenOffers(trx, batch);
    rows += await writeCollectionOffers(trx, batch);
    rows += await writeBurns(trx, batch);
    rows += await writeLootboxes(trx, batch);
    rows += await unnestInsert(
      trx,
      'failed_transactions',
      { transaction_version: 'bigint', reason: 'text', payload: 'jsonb' },
      batch.failed,
      'ON CONFLICT (transaction_version) DO UPDATE SET reason = excluded.reason, payload = excluded.payload',
    );

    const touchedLootboxes = [
      ...new Set([
        ...batch.lootboxes.map((l) => l.lootbox_id),
        ...batch.lootboxUpdates.map((l) => l.lootbox_id),
        ...batch.lootboxPurchases.map((p) => p.lootbox_id),
        ...batch.lootboxReveals.map((r) => r.lootbox_id),
      ]),
    ];
    await refreshLootboxCounters(trx, touchedLootboxes);

    const touchedCollections = collectTouchedCollections(batch, owners.rows);
    await refreshOwnerCounts(trx, touchedCollections);

    await trx
      .insertInto('indexer_checkpoints')
      .values({
        name: batch.checkpoint.name,
        last_version: batch.checkpoint.lastVersion,
        last_timestamp: batch.checkpoint.lastTimestamp,
        updated_at: new Date(),
      })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet((eb) => ({
          last_version: sql<number>`GREATEST(${eb.ref('indexer_checkpoints.last_version')}, ${eb.ref('excluded.last_version')})`,
          last_timestamp: eb.ref('excluded.last_timestamp'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
    return {
      rowsWritten: rows,
      unresolvedOwnerships: owners.unresolved,
      touchedCollections,
      touchedLootboxes,
    };
  });
}

function collectTouchedCollections(batch: IngestBatch, owners: { collection_id: string | null }[]): string[] {
  const ids = new Set<string>();
  const add = (id: string | null) => {
    if (id) ids.add(id);
  };
  for (const r of batch.collections) add(r.collection_id);
  for (const r of batch.tokens) add(r.collection_id);
  for (const r of owners) add(r.collection_id);
  for (const r of batch.marketActivities) add(r.collection_id);
  for (const r of batch.lootboxes) add(r.collection_id);
  return [...ids].sort();
}

/** Owner counts are recounted for touched collections only (index-only scan of current owners). */
async function refreshOwnerCounts(db: Db, collectionIds: readonly string[]): Promise<void> {
  if (collectionIds.length === 0) return;
  await sql`
    UPDATE collections c SET owner_count = COALESCE(o.owners, 0)
    FROM (
      SELECT k.id, (SELECT count(DISTINCT owner_address) FROM token_ownerships
                    WHERE collection_id = k.id AND amount > 0) AS owners
      FROM unnest(${[...collectionIds]}::text[]) AS k(id)
    ) o
    WHERE c.collection_id = o.id AND c.owner_count IS DISTINCT FROM o.owners
  `.execute(db);
}
