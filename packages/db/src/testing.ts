import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Db } from './database';
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
