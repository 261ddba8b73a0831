import { sql } from 'kysely';
import type { Db } from '../database';
import { lastByKey, unnestInsert, unnestInsertReturning } from './bulk';
import type { CollectionRow, IngestBatch, TokenRow } from './types';

/*
 * Current-state upserts share one rule: a row is overwritten only by a version at least as new as
 * the one it holds (`<=`, so replaying the same transaction rewrites identical values). Facts that
 * a transaction does not show arrive as null and keep the stored value (COALESCE).
 */

/** Returns the rows written and the ids of collections this batch created. */
export async function writeCollections(
  db: Db,
  batch: IngestBatch,
): Promise<{ rows: number; created: string[] }> {
  const rows = mergeNonNull(batch.collections, (r) => r.collection_id);
  const written = await unnestInsertReturning<CollectionRow, { collection_id: string; created: boolean }>(
    db,
    'collections',
    {
      collection_id: 'text',
      token_standard: 'text',
      creator_address: 'text',
      collection_name: 'text',
      description: 'text',
      uri: 'text',
      current_supply: 'numeric',
      max_supply: 'numeric',
      total_minted: 'numeric',
      created_at: 'timestamptz',
      created_version: 'bigint',
      last_transaction_version: 'bigint',
    },
    rows,
    `ON CONFLICT (collection_id) DO UPDATE SET
       creator_address = excluded.creator_address,
       collection_name = excluded.collection_name,
       description = COALESCE(excluded.description, collections.description),
       uri = COALESCE(excluded.uri, collections.uri),
       current_supply = COALESCE(excluded.current_supply, collections.current_supply),
       max_supply = COALESCE(excluded.max_supply, collections.max_supply),
       total_minted = COALESCE(excluded.total_minted, collections.total_minted),
       created_at = LEAST(excluded.created_at, collections.created_at),
       created_version = LEAST(excluded.created_version, collections.created_version),
       last_transaction_version = excluded.last_transaction_version
     WHERE collections.last_transaction_version <= excluded.last_transaction_version
     RETURNING collection_id, (xmax = 0) AS created`,
  );
  const supplies = lastByKey(batch.collectionSupplies, (r) => r.collection_id);
  let updated = 0;
  if (supplies.length > 0) {
    // Supply-only facts update known collections; they never create one (no name, no creator).
    const result = await sql`
      UPDATE collections c SET
        current_supply = COALESCE(s.current_supply, c.current_supply),
        max_supply = COALESCE(s.max_supply, c.max_supply),
        total_minted = COALESCE(s.total_minted, c.total_minted),
        last_transaction_version = s.version
      FROM unnest(${supplies.map((r) => r.collection_id)}::text[], ${supplies.map((r) => r.current_supply)}::numeric[],
                  ${supplies.map((r) => r.max_supply)}::numeric[], ${supplies.map((r) => r.total_minted)}::numeric[],
                  ${supplies.map((r) => r.last_transaction_version)}::bigint[])
        AS s(collection_id, current_supply, max_supply, total_minted, version)
      WHERE c.collection_id = s.collection_id AND c.last_transaction_version <= s.version
        AND c.collection_id = ANY(${supplies.map((r) => r.collection_id)}::text[])
    `.execute(db);
    updated = Number(result.numAffectedRows ?? 0);
  }
  return {
    rows: written.length + updated,
    created: written.filter((r) => r.created).map((r) => r.collection_id),
  };
}

export async function writeTokens(db: Db, batch: IngestBatch): Promise<number> {
  const rows = mergeNonNull(batch.tokens, (r) => r.token_data_id);
  const changed = await unnestInsertReturning<TokenRow, { token_data_id: string; has_properties: boolean }>(
    db,
    'tokens',
    {
      token_data_id: 'text',
      token_standard: 'text',
      collection_id: 'text',
      creator_address: 'text',
      collection_name: 'text',
      token_name: 'text',
      description: 'text',
      token_uri: 'text',
      properties: 'jsonb',
      supply: 'numeric',
      maximum: 'numeric',
      largest_property_version: 'numeric',
      is_soulbound: 'boolean',
      minted_at: 'timestamptz',
      minted_version: 'bigint',
      last_transaction_version: 'bigint',
    },
    rows.map((r) => ({ ...r, is_soulbound: r.is_soulbound ?? false })),
    `ON CONFLICT (token_data_id) DO UPDATE SET
       collection_id = excluded.collection_id,
       creator_address = COALESCE(excluded.creator_address, tokens.creator_address),
       collection_name = COALESCE(excluded.collection_name, tokens.collection_name),
       token_name = CASE WHEN excluded.token_name = '' THEN tokens.token_name ELSE excluded.token_name END,
       description = COALESCE(excluded.description, tokens.description),
       token_uri = COALESCE(excluded.token_uri, tokens.token_uri),
       properties = COALESCE(excluded.properties, tokens.properties),
       supply = COALESCE(excluded.supply, tokens.supply),
       maximum = COALESCE(excluded.maximum, tokens.maximum),
       largest_property_version = COALESCE(excluded.largest_property_version, tokens.largest_property_version),
       is_soulbound = excluded.is_soulbound OR tokens.is_soulbound,
       minted_at = COALESCE(tokens.minted_at, excluded.minted_at),
       minted_version = COALESCE(tokens.minted_version, excluded.minted_version),
       last_transaction_version = excluded.last_transaction_version
     WHERE tokens.last_transaction_version <= excluded.last_transaction_version
       -- Most facts repeat what is stored (every transfer rewrites the token's resources): skip
       -- those, so the row and its trigram index are not rewritten for nothing.
       AND (excluded.collection_id <> tokens.collection_id
         OR excluded.token_name NOT IN ('', tokens.token_name)
         OR (excluded.creator_address IS NOT NULL AND excluded.creator_address IS DISTINCT FROM tokens.creator_address)
         OR (excluded.collection_name IS NOT NULL AND excluded.collection_name IS DISTINCT FROM tokens.collection_name)
         OR (excluded.description IS NOT NULL AND excluded.description IS DISTINCT FROM tokens.description)
         OR (excluded.token_uri IS NOT NULL AND excluded.token_uri IS DISTINCT FROM tokens.token_uri)
         OR (excluded.properties IS NOT NULL AND excluded.properties IS DISTINCT FROM tokens.properties)
         OR (excluded.supply IS NOT NULL AND excluded.supply IS DISTINCT FROM tokens.supply)
         OR (excluded.maximum IS NOT NULL AND excluded.maximum IS DISTINCT FROM tokens.maximum)
         OR (excluded.largest_property_version IS NOT NULL
           AND excluded.largest_property_version IS DISTINCT FROM tokens.largest_property_version)
         OR (excluded.is_soulbound AND NOT tokens.is_soulbound)
         OR (tokens.minted_version IS NULL AND excluded.minted_version IS NOT NULL))
     RETURNING token_data_id, properties IS NOT NULL AS has_properties`,
  );
  let written = changed.length;
  if (changed.length > 0) {
    // A v2 token names only its collection object; creator and collection name come from there,
    // so that filters by (creator, collection) work the same for both standards.
    const filled = await sql`
      UPDATE tokens t SET creator_address = c.creator_address, collection_name = c.collection_name
      FROM collections c
      WHERE t.token_data_id = ANY(${changed.map((r) => r.token_data_id)}::text[]) AND c.collection_id = t.collection_id
        AND (t.creator_address IS DISTINCT FROM c.creator_address OR t.collection_name IS DISTINCT FROM c.collection_name)
    `.execute(db);
    written += Number(filled.numAffectedRows ?? 0);
  }
  // Traits are derived from the stored property map of the rows that actually changed, so a
  // replay or a partial fact cannot skew them.
  const withProps = changed.filter((r) => r.has_properties).map((r) => r.token_data_id);
  if (withProps.length > 0) {
    await sql`DELETE FROM token_attributes WHERE token_data_id = ANY(${withProps}::text[])`.execute(db);
    const inserted = await sql`
      INSERT INTO token_attributes (token_data_id, trait_type, collection_id, value)
      SELECT t.token_data_id, kv.key, t.collection_id, kv.value
      FROM tokens t, jsonb_each_text(t.properties) kv
      WHERE t.token_data_id = ANY(${withProps}::text[]) AND jsonb_typeof(t.properties) = 'object'
      ON CONFLICT DO NOTHING
    `.execute(db);
    written += Number(inserted.numAffectedRows ?? 0);
  }
  return written;
}

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
    latest.map((r) => ({ ...r, is_soulbound: r.is_soulbound ?? false })),
    `ON CONFLICT (token_data_id, property_version, owner_address) DO UPDATE SET
       amount = excluded.amount,
       collection_id = COALESCE(excluded.collection_id, token_ownerships.collection_id),
       is_soulbound = excluded.is_soulbound OR token_ownerships.is_soulbound,
       last_transaction_version = excluded.last_transaction_version
     WHERE token_ownerships.last_transaction_version <= excluded.last_transaction_version`,
  );
  // A v2 token has exactly one owner: whoever held it before a newer owner fact no longer does.
  const current = newestPerToken(latest.filter((r) => r.token_standard === 'v2' && r.amount !== '0'));
  if (current.length > 0) {
    const result = await sql`
      UPDATE token_ownerships o SET amount = 0, last_transaction_version = n.version
      FROM unnest(${current.map((r) => r.token_data_id)}::text[], ${current.map((r) => r.owner_address)}::text[],
                  ${current.map((r) => r.last_transaction_version)}::bigint[]) AS n(token, owner, version)
      WHERE o.token_data_id = n.token AND o.owner_address <> n.owner AND o.amount > 0
        AND o.last_transaction_version <= n.version
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

export async function writeBurns(db: Db, batch: IngestBatch): Promise<number> {
  const burns = lastByKey(batch.burnedTokens, (r) => r.token_data_id);
  if (burns.length === 0) return 0;
  const tokens = burns.map((b) => b.token_data_id);
  const versions = burns.map((b) => b.last_transaction_version);
  const marked = await sql`
    UPDATE tokens t SET is_burned = true, last_transaction_version = GREATEST(t.last_transaction_version, n.version)
    FROM unnest(${tokens}::text[], ${versions}::bigint[]) AS n(token, version)
    WHERE t.token_data_id = n.token AND t.last_transaction_version <= n.version AND t.token_data_id = ANY(${tokens}::text[])
  `.execute(db);
  const owners = await sql`
    UPDATE token_ownerships o SET amount = 0, last_transaction_version = n.version
    FROM unnest(${tokens}::text[], ${versions}::bigint[]) AS n(token, version)
    WHERE o.token_data_id = n.token AND o.token_standard = 'v2' AND o.amount > 0 AND o.last_transaction_version <= n.version
      AND o.token_data_id = ANY(${tokens}::text[])
  `.execute(db);
  // A burned token can no longer be bought: its listings stop counting toward floors.
  const listings = await sql`
    UPDATE listings l SET status = 'cancelled', closed_at = NULL, last_transaction_version = n.version
    FROM unnest(${tokens}::text[], ${versions}::bigint[]) AS n(token, version)
    WHERE l.token_data_id = n.token AND l.status = 'active' AND l.last_transaction_version <= n.version
      AND l.token_data_id = ANY(${tokens}::text[])
  `.execute(db);
  return [marked, owners, listings].reduce((sum, r) => sum + Number(r.numAffectedRows ?? 0), 0);
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

export async function writeTokenActivities(db: Db, batch: IngestBatch): Promise<number> {
  return unnestInsert(
    db,
    'token_activities',
    {
      transaction_version: 'bigint',
      event_index: 'integer',
      kind: 'text',
      event_type: 'text',
      token_data_id: 'text',
      token_standard: 'text',
      collection_id: 'text',
      property_version: 'numeric',
      from_address: 'text',
      to_address: 'text',
      amount: 'numeric',
      transaction_timestamp: 'timestamptz',
    },
    batch.tokenActivities,
    'ON CONFLICT (transaction_version, event_index) DO NOTHING',
  );
}

/**
 * Several facts about one row in a batch (e.g. a mint then a mutation): later non-null values win,
 * earlier ones fill the gaps, and the first creation time is kept.
 */
function mergeNonNull<T extends { last_transaction_version: number }>(
  rows: readonly T[],
  key: (row: T) => string,
): T[] {
  const merged = new Map<string, T>();
  for (const row of rows) {
    const k = key(row);
    const previous = merged.get(k);
    if (!previous) {
      merged.set(k, row);
      continue;
    }
    const next = { ...previous } as Record<string, unknown>;
    for (const [field, value] of Object.entries(row)) {
      if (value === null || value === undefined) continue;
      if (
        (field === 'created_at' ||
          field === 'created_version' ||
          field === 'minted_at' ||
          field === 'minted_version') &&
        next[field] != null
      )
        continue;
      next[field] = value;
    }
    merged.set(k, next as T);
  }
  return [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}
