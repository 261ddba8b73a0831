import { sql } from 'kysely';
import type { Db } from '../database';
import { unnestInsert } from './bulk';
import { writeBurns } from './burns';
import { writeCollections } from './collections';
import { escrowReleases } from './escrow-release';
import { writeFloorChanges } from './floor-changes';
import { refreshLootboxCounters, writeLootboxes } from './lootbox';
import {
  priceSalesFromListings,
  writeCollectionOffers,
  writeListings,
  writeMarketActivities,
  writeTokenOffers,
} from './market';
import { applyOwnerCountDeltas, holdings, pairsAffected, recountOwners } from './owner-counts';
import { resolveOwners, writeOwnerships, writePendingClaims, writeTableHandles } from './ownerships';
import { writeCollectionPlaceholders, writeTokenPlaceholders } from './placeholders';
import { writeTokenActivities } from './token-activities';
import { writeTokens } from './tokens';
import type { IngestBatch, IngestResult } from './types';
import { refreshWashFlags } from './wash-flags';

/*
 * Current-state upserts share one rule: a row is overwritten only by a version at least as new as
 * the one it holds (`<=`, so replaying the same transaction rewrites identical values). Facts that
 * a transaction does not show arrive as null and keep the stored value (COALESCE).
 */

/**
 * Writes every row of a batch and its checkpoint in ONE transaction: a crash at any point leaves
 * either the whole batch or none of it, so a restart from the checkpoint neither loses nor repeats.
 */
export async function writeBatch(db: Db, batch: IngestBatch): Promise<IngestResult> {
  const steps: Record<string, number> = {};
  // Adds each step's wall time under its name: where a batch's time goes (the ingest bench prints it).
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      steps[name] = (steps[name] ?? 0) + performance.now() - t0;
    }
  };
  let bodyEnd = 0;
  const result = await db.transaction().execute(async (trx) => {
    const expected = batch.checkpoint.previous;
    if (expected !== undefined) {
      const stored = await trx
        .selectFrom('indexer_checkpoints')
        .select('last_version')
        .where('name', '=', batch.checkpoint.name)
        .forUpdate()
        .executeTakeFirst();
      const actual = stored?.last_version ?? null;
      if (actual !== expected) {
        throw new CheckpointMovedError(
          `checkpoint "${batch.checkpoint.name}" is at ${actual ?? 'none'}, expected ${expected ?? 'none'}: ` +
            'another writer moved it; this batch is not written',
        );
      }
    }
    let rows = 0;
    const placeholders = await step('collections', () => writeCollectionPlaceholders(trx, batch));
    rows += placeholders.length;
    const collections = await step('collections', () => writeCollections(trx, batch));
    rows += collections.rows;
    rows += await step('tokens', () => writeTokenPlaceholders(trx, batch));
    rows += await step('tokens', () => writeTokens(trx, batch));
    rows += await step('table handles', () => writeTableHandles(trx, batch));
    const owners = await step('ownerships', () => resolveOwners(trx, batch));
    owners.rows.push(...(await step('ownerships', () => escrowReleases(trx, batch, owners.rows))));
    const pairs = await step('owner counts', () =>
      pairsAffected(
        trx,
        owners.rows
          .filter((o) => o.collection_id !== null)
          .map((o) => ({ collectionId: o.collection_id as string, owner: o.owner_address })),
        [
          ...owners.rows.filter((o) => o.token_standard === 'v2').map((o) => o.token_data_id),
          ...batch.burnedTokens.map((b) => b.token_data_id),
        ],
      ),
    );
    const heldBefore = await step('owner counts', () => holdings(trx, pairs));
    rows += await step('ownerships', () => writeOwnerships(trx, owners.rows));
    rows += await step('pending claims', () => writePendingClaims(trx, batch));
    rows += await step('token activities', () => writeTokenActivities(trx, batch));
    rows += await step('market activities', () => writeMarketActivities(trx, batch));
    await step('wash flags', () => refreshWashFlags(trx, batch));
    // Before the listings: the floors replay the batch from the stored listings.
    rows += await step('floor changes', () => writeFloorChanges(trx, batch));
    rows += await step('listings', () => writeListings(trx, batch));
    rows += await step('listings', () => priceSalesFromListings(trx, batch));
    rows += await step('offers', () => writeTokenOffers(trx, batch));
    rows += await step('offers', () => writeCollectionOffers(trx, batch));
    rows += await step('burns', () => writeBurns(trx, batch));
    rows += await step('lootboxes', () => writeLootboxes(trx, batch));
    rows += await step('failed transactions', () =>
      unnestInsert(
        trx,
        'failed_transactions',
        { transaction_version: 'bigint', reason: 'text', payload: 'jsonb' },
        batch.failed,
        'ON CONFLICT (transaction_version) DO UPDATE SET reason = excluded.reason, payload = excluded.payload',
      ),
    );

    const touchedLootboxes = [
      ...new Set([
        ...batch.lootboxes.map((l) => l.lootbox_id),
        ...batch.lootboxUpdates.map((l) => l.lootbox_id),
        ...batch.lootboxPurchases.map((p) => p.lootbox_id),
        ...batch.lootboxReveals.map((r) => r.lootbox_id),
      ]),
    ];
    await step('lootboxes', () =>
      refreshLootboxCounters(
        trx,
        touchedLootboxes,
        batch.lootboxReveals.map((r) => r.token_data_id),
      ),
    );

    const touchedCollections = collectTouchedCollections(batch, owners.rows);
    await step('owner counts', async () => {
      await applyOwnerCountDeltas(trx, pairs, heldBefore, await holdings(trx, pairs));
      await recountOwners(trx, [...new Set([...placeholders, ...collections.created])]);
    });
    const t0 = performance.now();

    // The outbox of collection-changed jobs, committed with the rows (see the 1000 reliab migration).
    if (touchedCollections.length > 0) {
      await trx
        .insertInto('collection_change_outbox')
        .values(
          touchedCollections.map((id) => ({ collection_id: id, version: batch.checkpoint.lastVersion })),
        )
        .onConflict((oc) =>
          oc.column('collection_id').doUpdateSet((eb) => ({
            version: sql<number>`GREATEST(${eb.ref('collection_change_outbox.version')}, ${eb.ref('excluded.version')})`,
          })),
        )
        .execute();
    }
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
    steps['outbox + checkpoint'] = performance.now() - t0;
    bodyEnd = performance.now();
    return {
      rowsWritten: rows,
      unresolvedOwnerships: owners.unresolved,
      touchedCollections,
      touchedLootboxes,
      steps,
    };
  });
  steps.commit = performance.now() - bodyEnd;
  return result;
}

export class CheckpointMovedError extends Error {
  override name = 'CheckpointMovedError';
}

function collectTouchedCollections(batch: IngestBatch, owners: { collection_id: string | null }[]): string[] {
  const ids = new Set<string>();
  const add = (id: string | null) => {
    if (id) ids.add(id);
  };
  for (const r of batch.collections) add(r.collection_id);
  for (const r of batch.collectionPlaceholders) add(r.collection_id);
  for (const r of batch.tokens) add(r.collection_id);
  for (const r of owners) add(r.collection_id);
  for (const r of batch.marketActivities) add(r.collection_id);
  for (const r of batch.lootboxes) add(r.collection_id);
  return [...ids].sort();
}
