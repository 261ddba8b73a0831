import { sql } from 'kysely';
import type { Db } from '../database';
import { lastByKey, unnestInsert } from './bulk';
import type { IngestBatch } from './types';

export async function writeTableHandles(db: Db, batch: IngestBatch): Promise<number> {
  return unnestInsert(
    db,
    'table_handle_owners',
    { handle: 'text', owner_address: 'text', kind: 'text', last_transaction_version: 'bigint' },
    lastByKey(batch.tableHandles, (r) => r.handle),
    `ON CONFLICT (handle) DO UPDATE SET owner_address = excluded.owner_address, kind = excluded.kind,
       last_transaction_version = excluded.last_transaction_version
     WHERE table_handle_owners.last_transaction_version <= excluded.last_transaction_version`,
  );
}

/** Resolves v1 table handles to owners: this batch's handles first, then the ones stored earlier. */
export async function resolveOwners(
  db: Db,
  batch: IngestBatch,
): Promise<{ rows: (IngestBatch['ownerships'][number] & { owner_address: string })[]; unresolved: number }> {
  const inBatch = new Map(batch.tableHandles.map((h) => [h.handle, h.owner_address]));
  const missing = [
    ...new Set(
      batch.ownerships
        .filter((o) => o.owner_address === null && o.table_handle !== null && !inBatch.has(o.table_handle))
        .map((o) => o.table_handle as string),
    ),
  ];
  if (missing.length > 0) {
    const stored = await db
      .selectFrom('table_handle_owners')
      .select(['handle', 'owner_address'])
      .where('handle', 'in', missing)
      .execute();
    for (const s of stored) inBatch.set(s.handle, s.owner_address);
  }
  let unresolved = 0;
  const rows: (IngestBatch['ownerships'][number] & { owner_address: string })[] = [];
  for (const o of batch.ownerships) {
    const owner = o.owner_address ?? (o.table_handle ? inBatch.get(o.table_handle) : undefined);
    if (owner) rows.push({ ...o, owner_address: owner });
    else unresolved += 1;
  }
  return { rows, unresolved };
}

export async function writeOwnerships(
  db: Db,
  rows: (IngestBatch['ownerships'][number] & { owner_address: string })[],
): Promise<number> {
  const latest = lastByKey(rows, (r) => `${r.token_data_id}|${r.property_version}|${r.owner_address}`);
  let written = await unnestInsert(
    db,
    'token_ownerships',
    {
      token_data_id: 'text',
      property_version: 'numeric',
      owner_address: 'text',
      collection_id: 'text',
      token_standard: 'text',
      amount: 'numeric',
      is_soulbound: 'boolean',
      last_transaction_version: 'bigint',
    },
    // The table's row: the handle only served to find the owner.
    latest.map(({ table_handle: _resolved, ...r }) => ({ ...r, is_soulbound: r.is_soulbound ?? false })),
    `ON CONFLICT (token_data_id, property_version, owner_address) DO UPDATE SET
       amount = excluded.amount,
       collection_id = COALESCE(excluded.collection_id, token_ownerships.collection_id),
       is_soulbound = excluded.is_soulbound OR token_ownerships.is_soulbound,
       last_transaction_version = excluded.last_transaction_version
     WHERE token_ownerships.last_transaction_version <= excluded.last_transaction_version`,
  );
  // A v2 token has exactly one owner: whoever held it before the batch stopped at the batch's first
  // new holder (holders the batch itself replaced arrive as amount-0 rows at the replacing version).
  const held = rows.filter((r) => r.token_standard === 'v2' && r.amount !== '0');
  const current = newestPerToken(held);
  if (current.length > 0) {
    const first = firstVersionPerToken(held);
    const result = await sql`
      UPDATE token_ownerships o SET amount = 0, last_transaction_version = n.first
      FROM unnest(${current.map((r) => r.token_data_id)}::text[], ${current.map((r) => r.owner_address)}::text[],
                  ${current.map((r) => first.get(r.token_data_id) ?? r.last_transaction_version)}::bigint[])
        AS n(token, owner, first)
      WHERE o.token_data_id = n.token AND o.owner_address <> n.owner AND o.amount > 0
        AND o.last_transaction_version <= n.first
        -- Repeating the keys as ANY(...) lets the planner probe the primary key; joined only to
        -- unnest(), it hashes the whole table, and every batch would cost as much as the table is big.
        AND o.token_data_id = ANY(${current.map((r) => r.token_data_id)}::text[])
    `.execute(db);
    written += Number(result.numAffectedRows ?? 0);
  }
  return written;
}

/** The newest holder per token (rows arrive sorted by key, not by version). */
function newestPerToken<T extends { token_data_id: string; last_transaction_version: number }>(
  rows: readonly T[],
): T[] {
  const newest = new Map<string, T>();
  for (const row of rows) {
    const seen = newest.get(row.token_data_id);
    if (!seen || seen.last_transaction_version <= row.last_transaction_version)
      newest.set(row.token_data_id, row);
  }
  return [...newest.values()].sort((a, b) => (a.token_data_id < b.token_data_id ? -1 : 1));
}

function firstVersionPerToken(rows: readonly { token_data_id: string; last_transaction_version: number }[]) {
  const first = new Map<string, number>();
  for (const row of rows) {
    const seen = first.get(row.token_data_id);
    if (seen === undefined || row.last_transaction_version < seen)
      first.set(row.token_data_id, row.last_transaction_version);
  }
  return first;
}

export async function writePendingClaims(db: Db, batch: IngestBatch): Promise<number> {
  return unnestInsert(
    db,
    'token_pending_claims',
    {
      token_data_id: 'text',
      property_version: 'numeric',
      from_address: 'text',
      to_address: 'text',
      collection_id: 'text',
      amount: 'numeric',
      last_transaction_version: 'bigint',
    },
    lastByKey(
      batch.pendingClaims,
      (r) => `${r.token_data_id}|${r.property_version}|${r.from_address}|${r.to_address}`,
    ),
    `ON CONFLICT (token_data_id, property_version, from_address, to_address) DO UPDATE SET
       amount = excluded.amount,
       collection_id = COALESCE(excluded.collection_id, token_pending_claims.collection_id),
       last_transaction_version = excluded.last_transaction_version
     WHERE token_pending_claims.last_transaction_version <= excluded.last_transaction_version`,
  );
}
