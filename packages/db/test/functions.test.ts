import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionSql } from '../src/functions';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/*
 * A database function is found by its file: every function of the migrated schema is the file of
 * src/functions/ named for it, defined as that file says, and every file is applied by a migration.
 * A function written inline in a migration fails here, whether new or a later inline replacement of
 * one that has a file. Functions of extensions (pg_trgm) are theirs, not mdq's.
 */
const FILES = readdirSync(new URL('../src/functions/', import.meta.url))
  .filter((f) => f.endsWith('.sql'))
  .map((f) => f.slice(0, -'.sql'.length))
  .sort();

const MIGRATIONS = new URL('../src/migrations/', import.meta.url);
const MIGRATION_SOURCES = readdirSync(MIGRATIONS)
  .filter((f) => f.endsWith('.ts'))
  .map((file) => ({ file, source: readFileSync(new URL(file, MIGRATIONS), 'utf8') }));

describe('database functions', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  async function schemaFunctions(): Promise<{ name: string; definition: string }[]> {
    const { rows } = await sql<{ name: string; definition: string }>`
      SELECT p.proname::text AS name, pg_get_functiondef(p.oid) AS definition
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = current_schema()
        AND NOT EXISTS (SELECT 1 FROM pg_depend d
                        WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
      ORDER BY 1, 2`.execute(test.db);
    return rows;
  }

  it('are the files of src/functions/, one a function, each creating the function it is named for', async () => {
    expect((await schemaFunctions()).map((f) => f.name)).toEqual(FILES);
    const created = FILES.map((name) => /^CREATE OR REPLACE FUNCTION (\w+)\(/m.exec(functionSql(name))?.[1]);
    expect(created).toEqual(FILES);
  });

  it('are defined as their files say', async () => {
    const migrated = await schemaFunctions();
    for (const name of FILES) await sql.raw(functionSql(name)).execute(test.db);
    expect(await schemaFunctions()).toEqual(migrated);
  });

  it('are each applied by a migration from its file, none written inline', () => {
    const applied = new Set(
      MIGRATION_SOURCES.flatMap(({ source }) =>
        [...source.matchAll(/\b(?:functionSql|createFunctions)\(([^)]*)\)/g)].flatMap(([, args]) =>
          [...(args ?? '').matchAll(/'(\w+)'/g)].map(([, name]) => name),
        ),
      ),
    );
    expect(FILES.filter((name) => !applied.has(name))).toEqual([]);
    const inline = MIGRATION_SOURCES.filter(({ source }) =>
      /CREATE\s+(OR\s+REPLACE\s+)?FUNCTION/i.test(source),
    );
    expect(inline.map(({ file }) => file)).toEqual([]);
  });
});
