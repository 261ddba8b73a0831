import { type Db, sql } from '@mdq/db';
import { createTestDatabase, scopeVersion, type TestDatabase } from '@mdq/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeAllRarity } from '../src/tasks/rarity';
import { addr, insertCollection, insertToken, insertTraits } from './helpers';

/*
 * A full recompute that changes most of token_rarity builds a new table and swaps it in
 * (packages/db rarity-rebuild.ts); one that changes few rows updates them in place. The table's OID
 * tells which path ran. Ranks are hand-computed: one trait, so a token's score orders as the
 * rarity of its value.
 */
let t: TestDatabase;
let db: Db;
const now = new Date('2026-11-20T12:00:00Z');
const later = new Date(now.getTime() + 60_000);
const [A, B] = [addr(0xa1), addr(0xb1)] as [string, string];

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
  // A: a is rarest, b and c share a value.
  await insertCollection(db, A);
  for (const [id, value] of [
    ['a', 'x'],
    ['b', 'y'],
    ['c', 'y'],
  ] as const) {
    await insertToken(db, `A-${id}`, A);
    await insertTraits(db, `A-${id}`, A, { c: value });
  }
  // B: x once, y twice, z three times → ranks 1, 2, 2, 4, 4, 4.
  await insertCollection(db, B);
  for (const [id, value] of [
    ['p', 'x'],
    ['q', 'y'],
    ['r', 'y'],
    ['s', 'z'],
    ['t', 'z'],
    ['u', 'z'],
  ] as const) {
    await insertToken(db, `B-${id}`, B);
    await insertTraits(db, `B-${id}`, B, { c: value });
  }
});
afterAll(async () => {
  await t?.drop();
});

const tableOid = async () =>
  (await sql<{ oid: number }>`SELECT 'token_rarity'::regclass::oid::int AS oid`.execute(db)).rows[0]?.oid;

const rows = async () =>
  (
    await sql<{ id: string; rank: number; at: Date }>`
      SELECT token_data_id AS id, rank, computed_at AS at FROM token_rarity ORDER BY token_data_id COLLATE "C"`.execute(
      db,
    )
  ).rows.map((r) => [r.id, r.rank, r.at.getTime()]);

/** What the migrations made of the table: its indexes, constraints and triggers, by name and definition. */
const shape = async () =>
  (
    await sql<{ what: string }>`
      SELECT indexdef AS what FROM pg_indexes WHERE tablename = 'token_rarity'
      UNION ALL SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'token_rarity'::regclass
      UNION ALL SELECT tgname FROM pg_trigger WHERE tgrelid = 'token_rarity'::regclass AND NOT tgisinternal
      ORDER BY 1`.execute(db)
  ).rows.map((r) => r.what);

const readVersion = async () =>
  Number(
    (
      await sql<{ v: string }>`
        SELECT COALESCE(sum(version), 0)::text AS v FROM read_versions WHERE source = 'token_rarity'`.execute(
        db,
      )
    ).rows[0]?.v,
  );

/**
 * The kept ranked totals (collection_rarity_totals, which the bulk-filled table's triggers never
 * saw: the rebuild recounts them) against the rows counted.
 */
const totalsHold = async () => {
  const { rows: kept } = await sql<{ id: string; n: number }>`
    SELECT collection_id AS id, ranked AS n FROM collection_rarity_totals WHERE ranked <> 0 ORDER BY 1`.execute(
    db,
  );
  const { rows: counted } = await sql<{ id: string; n: number }>`
    SELECT collection_id AS id, count(*)::int AS n FROM token_rarity GROUP BY 1 ORDER BY 1`.execute(db);
  expect(kept).toEqual(counted);
  return Object.fromEntries(kept.map((r) => [r.id, r.n]));
};

/** A collection's own token_rarity counter (read_collection_versions): what its cached pages key by. */
const collectionVersion = (id: string) => scopeVersion(db, 'token_rarity', id);

describe('OpenRarity full recompute, rebuilt in bulk', () => {
  it('a first computation builds the table anew with the same indexes, key and triggers', async () => {
    const [oid, before, version] = [await tableOid(), await shape(), await readVersion()];
    expect(await computeAllRarity(db, now)).toBe(9);
    expect(await tableOid()).not.toBe(oid);
    expect(await shape()).toEqual(before);
    expect(await totalsHold()).toEqual({ [A]: 3, [B]: 6 });
    expect(await readVersion()).toBeGreaterThan(version);
    const at = now.getTime();
    expect(await rows()).toEqual([
      ['A-a', 1, at],
      ['A-b', 2, at],
      ['A-c', 2, at],
      ['B-p', 1, at],
      ['B-q', 2, at],
      ['B-r', 2, at],
      ['B-s', 4, at],
      ['B-t', 4, at],
      ['B-u', 4, at],
    ]);
    // The primary key is enforced on the new table.
    await expect(
      sql`INSERT INTO token_rarity (token_data_id, collection_id, score, rank, trait_count, computed_at)
          VALUES ('A-a', ${A}, 0, 1, 1, now())`.execute(db),
    ).rejects.toThrow(/token_rarity_pkey/);
  });

  it('a change moving most rows rebuilds again and keeps the other collections as stored', async () => {
    const oid = await tableOid();
    const [versionA, versionB] = [await collectionVersion(A), await collectionVersion(B)];
    // B: x, y, z twice each → every token of B ranks first; A is untouched.
    await sql`UPDATE token_attributes SET value = 'x' WHERE token_data_id = 'B-u'`.execute(db);
    expect(await computeAllRarity(db, later)).toBe(6);
    expect(await tableOid()).not.toBe(oid);
    // The bulk insert fires no trigger: the rebuild bumps the recomputed collection itself, and
    // only it (A's rows were copied as they were: its cached pages stand).
    expect(await collectionVersion(B)).toBeGreaterThan(versionB);
    expect(await collectionVersion(A)).toBe(versionA);
    const [at, then] = [now.getTime(), later.getTime()];
    expect(await rows()).toEqual([
      ['A-a', 1, at],
      ['A-b', 2, at],
      ['A-c', 2, at],
      ['B-p', 1, then],
      ['B-q', 1, then],
      ['B-r', 1, then],
      ['B-s', 1, then],
      ['B-t', 1, then],
      ['B-u', 1, then],
    ]);
  });

  it('a burn drops the row in the rebuild; a change of few rows updates in place', async () => {
    // Burning B-p leaves x once (B-u): B-u ranks first, the rest share rank 2.
    await sql`UPDATE tokens SET is_burned = true WHERE token_data_id = 'B-p'`.execute(db);
    const oid = await tableOid();
    expect(await computeAllRarity(db, later)).toBe(5);
    expect(await tableOid()).not.toBe(oid);
    expect(await totalsHold()).toEqual({ [A]: 3, [B]: 5 });
    expect((await rows()).filter(([id]) => String(id).startsWith('B-'))).toEqual([
      ['B-q', 2, later.getTime()],
      ['B-r', 2, later.getTime()],
      ['B-s', 2, later.getTime()],
      ['B-t', 2, later.getTime()],
      ['B-u', 1, later.getTime()],
    ]);
    // A's c takes a's value: a and c share it, b is rarest. Two of 8 rows move and are updated in
    // place; c's score and rank stay what they were (a value held twice either way), so its row is
    // not rewritten.
    const kept = await tableOid();
    const third = new Date(later.getTime() + 60_000);
    await sql`UPDATE token_attributes SET value = 'x' WHERE token_data_id = 'A-c'`.execute(db);
    expect(await computeAllRarity(db, third)).toBe(3);
    expect(await tableOid()).toBe(kept);
    expect(await totalsHold()).toEqual({ [A]: 3, [B]: 5 });
    expect((await rows()).filter(([id]) => String(id).startsWith('A-'))).toEqual([
      ['A-a', 2, third.getTime()],
      ['A-b', 1, third.getTime()],
      ['A-c', 2, now.getTime()],
    ]);
  });
});
