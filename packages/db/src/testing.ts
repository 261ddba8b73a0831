import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
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
 * rows. Call drop() in afterAll. A migrated one is a copy of the server's template for this tree's
 * migrations (made once, see migratedTemplate): a copy took 269 ms where migrating took 642 ms
 * (beside a running suite), ~160 times a test run. `migrate: false` gives an empty database, for
 * the tests that migrate it.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const server = testServerUrl();
  const name = `mdq_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const template = options.migrate === false ? null : await migratedTemplate(server);
  await adminQuery(server, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = withDatabase(server, name);
  const db = createDb(url, { max: 5 });
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

/*
 * The template: a database migrated to this tree's migrations, named for a hash of their source and
 * of the database functions they apply, so an edited migration gets a template of its own. Made
 * under an advisory lock (test files and turbo's packages start at once) and published by a rename,
 * so a copy never meets a half-migrated template; nothing stays connected to it, which CREATE
 * DATABASE ... TEMPLATE requires. Templates of other trees are left: a checkout beside this one may
 * be using its own on the same server (`mdq_template_%`, a few megabytes each).
 */
const templates = new Map<string, Promise<string>>();

function migratedTemplate(server: string): Promise<string> {
  let template = templates.get(server);
  if (!template) {
    template = makeTemplate(server);
    templates.set(server, template);
    template.catch(() => templates.delete(server));
  }
  return template;
}

async function makeTemplate(server: string): Promise<string> {
  const name = `mdq_template_${(await migrationsFingerprint()).slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`SELECT pg_advisory_lock(hashtext('mdq test template'))`);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) {
      const draft = `${name}_draft`;
      await admin.query(`DROP DATABASE IF EXISTS ${draft} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${draft}`);
      const db = createDb(withDatabase(server, draft), { max: 1 });
      try {
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
      await admin.query(`ALTER DATABASE ${draft} RENAME TO ${name}`);
    }
    return name;
  } finally {
    await admin.end();
  }
}

async function migrationsFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  for (const folder of ['migrations', 'functions']) {
    const dir = new URL(`./${folder}/`, import.meta.url);
    for (const file of (await readdir(dir)).sort()) {
      hash.update(file).update(await readFile(new URL(file, dir)));
    }
  }
  return hash.digest('hex');
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
  // token_name_stems and the active listings and their counts are kept by triggers, not written by the batch code (so not
  // chain-state tables the ingest bench copies), but they must come out the same whatever the batches.
  for (const table of [
    ...CHAIN_STATE_TABLES,
    'token_name_stems',
    'active_listings',
    'active_listing_counts',
  ] as const) {
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
 * One scope's write counter of `source` (read_collection_versions, every backend's rows summed):
 * what a cached page about that collection (or wallet bucket, lootbox) keys by.
 */
export async function scopeVersion(db: Db, source: string, scope: string): Promise<number> {
  const { rows } = await sql<{ v: string }>`
    SELECT COALESCE(sum(version), 0)::text AS v FROM read_collection_versions
     WHERE source = ${source} AND collection_id = ${scope}`.execute(db);
  return Number(rows[0]?.v);
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

/** A small seeded generator (mulberry32), uniform in [0, 1): a test's random walk or data is the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}
