import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src';
import { createTestDatabase, scopeVersion, type TestDatabase } from '../src/testing';

/*
 * collection_rarity_totals holds each collection's token_rarity rows (migration 2026-12-16T1000),
 * kept by statement triggers on token_rarity: checked against a plain count of the rows after
 * inserts, the worker's upsert (every row rewritten, none added), an update that moves rows to
 * another collection, deletes and a TRUNCATE. The rarity rebuild's recount is checked with it
 * (apps/worker test/rarity-rebuild.test.ts).
 */
let t: TestDatabase;
let db: Db;
beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
});
afterAll(() => t?.drop());

/** What the totals say, zero rows left out (a collection whose rows all went keeps one). */
const totals = async () =>
  Object.fromEntries(
    (
      await sql<{ id: string; n: number }>`
        SELECT collection_id AS id, ranked AS n FROM collection_rarity_totals WHERE ranked <> 0 ORDER BY 1`.execute(
        db,
      )
    ).rows.map((r) => [r.id, r.n]),
  );

/** The rows counted. */
const counted = async () =>
  Object.fromEntries(
    (
      await sql<{ id: string; n: number }>`
        SELECT collection_id AS id, count(*)::int AS n FROM token_rarity GROUP BY 1 ORDER BY 1`.execute(db)
    ).rows.map((r) => [r.id, r.n]),
  );

/** The totals table's own write counter for one collection (what a rarity page keys by). */
const version = (id: string) => scopeVersion(db, 'collection_rarity_totals', id);

/** Upserts ranked rows as the worker's own recompute does (queries/worker/rarity.ts storeRarity). */
const upsert = (rows: [token: string, collection: string][]) =>
  sql`
    INSERT INTO token_rarity (token_data_id, collection_id, score, rank, trait_count, computed_at)
    SELECT x.token, x.collection, random(), 1, 1, now()
      FROM unnest(${rows.map((r) => r[0])}::text[], ${rows.map((r) => r[1])}::text[]) AS x(token, collection)
    ON CONFLICT (token_data_id) DO UPDATE SET collection_id = excluded.collection_id,
      score = excluded.score, rank = excluded.rank, computed_at = excluded.computed_at`.execute(db);

describe('kept rarity totals', () => {
  it('count inserted rows per collection', async () => {
    await upsert([
      ['a1', 'A'],
      ['a2', 'A'],
      ['a3', 'A'],
      ['b1', 'B'],
    ]);
    expect(await totals()).toEqual({ A: 3, B: 1 });
    expect(await totals()).toEqual(await counted());
  });

  it("stay as they were when the worker rewrites every row, and that collection's counter with them", async () => {
    const before = await version('A');
    const rows: [string, string][] = ['a1', 'a2', 'a3', 'a4'].map((token) => [token, 'A']);
    await upsert(rows);
    expect(await totals()).toEqual({ A: 4, B: 1 });
    const after = await version('A');
    expect(after).toBeGreaterThan(before);
    // The same rows again: every row updated, none added, so no total is written.
    await upsert(rows);
    expect(await totals()).toEqual({ A: 4, B: 1 });
    expect(await version('A')).toBe(after);
  });

  it('follow rows moved to another collection, and deletes', async () => {
    await sql`UPDATE token_rarity SET collection_id = 'C' WHERE token_data_id IN ('a1', 'b1')`.execute(db);
    expect(await totals()).toEqual({ A: 3, C: 2 });
    await sql`DELETE FROM token_rarity WHERE token_data_id IN ('a2', 'a3')`.execute(db);
    expect(await totals()).toEqual({ A: 1, C: 2 });
    expect(await totals()).toEqual(await counted());
  });

  it('are empty after a TRUNCATE, and count again after it', async () => {
    await sql`TRUNCATE token_rarity`.execute(db);
    expect(await totals()).toEqual({});
    expect((await sql`SELECT 1 FROM collection_rarity_totals`.execute(db)).rows).toEqual([]);
    await upsert([['d1', 'D']]);
    expect(await totals()).toEqual({ D: 1 });
  });

  it('are recounted by rarity_totals_rebuild, only the changed ones written', async () => {
    // Written past the triggers, as the rebuild's bulk-filled table is.
    await sql`ALTER TABLE token_rarity DISABLE TRIGGER USER`.execute(db);
    await upsert([
      ['d2', 'D'],
      ['e1', 'E'],
    ]);
    await sql`ALTER TABLE token_rarity ENABLE TRIGGER USER`.execute(db);
    await upsert([['f1', 'F']]);
    const f = await version('F');
    expect(await totals()).not.toEqual(await counted());
    await sql`SELECT rarity_totals_rebuild()`.execute(db);
    expect(await totals()).toEqual({ D: 2, E: 1, F: 1 });
    expect(await totals()).toEqual(await counted());
    expect(await version('F')).toBe(f);
  });
});
