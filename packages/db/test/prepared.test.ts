import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../src/database';
import { executePrepared } from '../src/prepared';
import { createTestDatabase, type TestDatabase } from '../src/testing';

describe('executePrepared', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
    await sql`CREATE TABLE things (id int PRIMARY KEY, label text)`.execute(t.db);
    await sql`INSERT INTO things SELECT i, 'thing ' || i FROM generate_series(1, 50) i`.execute(t.db);
  });
  afterAll(() => t.drop());

  const byId = (id: number) => sql<{ label: string }>`SELECT label FROM things WHERE id = ${id}`;

  it('answers as the plain query, and its connection keeps a generic plan after a few runs', async () => {
    // One connection, so that pg_prepared_statements (per session) is that of the runs.
    const one = createDb(t.url, { max: 1 });
    try {
      for (let id = 1; id <= 12; id++) {
        expect(await executePrepared(one, byId(id))).toEqual([{ label: `thing ${id}` }]);
      }
      const { rows } = await sql<{ generic: number }>`SELECT generic_plans::int AS generic
        FROM pg_prepared_statements WHERE statement LIKE '%FROM things WHERE id%'`.execute(one);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.generic).toBeGreaterThan(0);
    } finally {
      await one.destroy();
    }
  });

  it('sees a write committed after it was prepared (a plan is kept, never its rows)', async () => {
    for (let i = 0; i < 8; i++) await executePrepared(t.db, byId(7));
    await sql`UPDATE things SET label = 'renamed' WHERE id = 7`.execute(t.db);
    expect(await executePrepared(t.db, byId(7))).toEqual([{ label: 'renamed' }]);
  });

  it('gives two statements of different text two names', async () => {
    const both = await Promise.all([
      executePrepared(t.db, byId(3)),
      executePrepared(t.db, sql<{ label: string }>`SELECT upper(label) AS label FROM things WHERE id = ${3}`),
    ]);
    expect(both).toEqual([[{ label: 'thing 3' }], [{ label: 'THING 3' }]]);
  });
});
