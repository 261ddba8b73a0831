import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, createDb } from '../src/database';
import { executePrepared, FrequentShapes } from '../src/prepared';
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

  it('runs texts built from requests prepared from their third run, never more of them than the bound', async () => {
    const one = createDb(t.url, { max: 1 });
    const shapes = new FrequentShapes(3, 4);
    const held = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements`.execute(one)).rows[0]
        ?.n;
    try {
      for (let id = 1; id <= 2; id++) await executePrepared(one, byId(id), shapes);
      expect(await held()).toBe(0);
      expect(await executePrepared(one, byId(3), shapes)).toEqual([{ label: 'thing 3' }]);
      expect(await held()).toBe(1);
      // Twenty texts (differing in letters, not digits), each sent five times: three more are
      // prepared, the rest keep running unnamed.
      const letters = 'abcdefghijklmnopqrst';
      for (let k = 0; k < 20; k++) {
        const suffixed = sql<{
          label: string;
        }>`SELECT label || ${sql.lit(`#${letters[k]}`)} AS label FROM things WHERE id = ${k + 20}`;
        for (let run = 0; run < 5; run++) {
          expect(await executePrepared(one, suffixed, shapes)).toEqual([
            { label: `thing ${k + 20}#${letters[k]}` },
          ]);
        }
      }
      expect(await held()).toBe(4);
      expect(shapes.prepared).toBe(4);
    } finally {
      await closeDb(one);
    }
  });

  it('prepares at most perShape texts that differ only in their digits, and other texts still', async () => {
    const one = createDb(t.url, { max: 1 });
    const shapes = new FrequentShapes(1, 10, 2);
    const held = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements`.execute(one)).rows[0]
        ?.n;
    try {
      // One statement polled with a moving number written into its text (a cursor, an offset).
      for (let cursor = 1; cursor <= 6; cursor++) {
        const polled = sql<{
          id: number;
        }>`SELECT id FROM things WHERE id > ${sql.lit(cursor)} ORDER BY id LIMIT 1`;
        expect(await executePrepared(one, polled, shapes)).toEqual([{ id: cursor + 1 }]);
      }
      expect(await held()).toBe(2);
      // Another statement still gets its place.
      expect(await executePrepared(one, byId(9), shapes)).toEqual([{ label: 'thing 9' }]);
      expect(await held()).toBe(3);
    } finally {
      await closeDb(one);
    }
  });
});
