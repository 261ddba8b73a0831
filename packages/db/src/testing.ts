import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { createDb, type Db } from './database';
import { CHAIN_STATE_TABLES } from './ingest/types';
import { migrateToLatest } from './migrate';

export interface TestDatabase {
  db: Db;
  url: string;
  name: string;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/** The server tests run against: TEST_DATABASE_URL, else DATABASE_URL, else the machine's local Postgres. */
export function testServerUrl(): string {
  return (
    process.env['TEST_DATABASE_URL'] ??
    process.env['DATABASE_URL'] ??
    'postgres://postgres@127.0.0.1:5432/postgres'
  );
}

/**
 * A fresh, migrated database for one test file, so test files run in parallel without sharing
 * rows. Call drop() in afterAll.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const server = testServerUrl();
  const name = `mdq_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(server, `CREATE DATABASE ${name}`);
  const url = withDatabase(server, name);
  const db = createDb(url, { max: 5 });
  if (options.migrate !== false) await migrateToLatest(db);
  return {
    db,
    url,
    name,
    async drop() {
      await db.destroy();
      await adminQuery(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * An order-independent fingerprint of every chain-state table (row count and an md5 of the sorted
 * rows), for "same database as a clean run" assertions. Checkpoints differ by run name and are left
 * out; a failed transaction compares by version and reason.
 */
export async function stateFingerprint(db: Db): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  // token_name_stems is kept by triggers, not written by the batch code (so not a chain-state table
  // the ingest bench copies), but it must come out the same whatever the batches.
  for (const table of [...CHAIN_STATE_TABLES, 'token_name_stems'] as const) {
    const column =
      table === 'failed_transactions' ? sql`(t.transaction_version, t.reason)::text` : sql`t::text`;
    const { rows } = await sql<{ h: string | null; n: number }>`
      SELECT md5(string_agg(${column}, '|' ORDER BY ${column})) AS h, count(*)::int AS n FROM ${sql.table(table)} t
    `.execute(db);
    out[table] = `${rows[0]?.n}:${rows[0]?.h ?? '-'}`;
  }
  return out;
}

/**
 * The rows where the trait counts the database keeps (trait_value_counts, collection_trait_totals)
 * differ from counting them afresh; empty when they are exact. A value or collection that no live
 * token has may be kept with 0 or not at all.
 */
export async function traitCountsDrift(db: Db): Promise<string[]> {
  const { rows } = await sql<{ drift: string }>`
    WITH fresh_values AS (
      SELECT a.collection_id, a.trait_type, a.value, count(*)::int AS n
        FROM token_attributes a JOIN tokens t ON t.token_data_id = a.token_data_id
       WHERE NOT t.is_burned GROUP BY 1, 2, 3
    ),
    fresh_totals AS (
      SELECT collection_id, count(*)::int AS n FROM tokens WHERE NOT is_burned GROUP BY 1
    )
    SELECT format('value %s/%s/%s: kept %s, counted %s', collection_id, trait_type, value,
                  COALESCE(k.live_count, 0), COALESCE(f.n, 0)) AS drift
      FROM trait_value_counts k FULL JOIN fresh_values f USING (collection_id, trait_type, value)
     WHERE COALESCE(k.live_count, 0) <> COALESCE(f.n, 0)
    UNION ALL
    SELECT format('collection %s: kept %s live tokens, counted %s', collection_id,
                  COALESCE(k.live_tokens, 0), COALESCE(f.n, 0))
      FROM collection_trait_totals k FULL JOIN fresh_totals f USING (collection_id)
     WHERE COALESCE(k.live_tokens, 0) <> COALESCE(f.n, 0)
    ORDER BY 1
  `.execute(db);
  return rows.map((r) => r.drift);
}

/** A bare collection row for a test: by `creator`, named `name` (its id unless given), at version 1. */
export async function insertCollection(
  db: Db,
  id: string,
  options: { standard?: 'v1' | 'v2'; name?: string; creator?: string } = {},
): Promise<void> {
  await sql`INSERT INTO collections (collection_id, token_standard, creator_address, collection_name,
              created_at, created_version, last_transaction_version)
            VALUES (${id}, ${options.standard ?? 'v2'}, ${options.creator ?? '0xcreator'}, ${options.name ?? id},
                    now(), 1, 1)`.execute(db);
}
