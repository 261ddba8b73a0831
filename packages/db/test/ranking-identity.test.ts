import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceRanking } from '../src/queries/worker/rankings';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/*
 * A ranked row carries its collection's name, creator, URI and lootbox (migration 2026-12-13T1100),
 * kept by triggers so that the rankings read ranking_snapshots alone. After every write here the
 * copies must be exactly what a join with `collections` gives, and ranking_snapshots' write counter
 * (what the cached rankings key on) must move when and only when a copy changed.
 */
describe('the ranked rows carry their collection as it is', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  const collection = (id: string, name: string, uri: string | null = null) =>
    sql`INSERT INTO collections (collection_id, token_standard, creator_address, collection_name, uri,
          created_at, created_version, last_transaction_version)
        VALUES (${id}, 'v2', '0xc', ${name}, ${uri}, now(), 1, 1)`.execute(test.db);

  /** The copies against the join, row by row. */
  async function copiesAndJoin() {
    const { rows } = await sql<{ copy: string; joined: string }>`
      SELECT row(rs.collection_name, rs.creator_address, rs.uri, rs.collection_lootbox_id)::text AS copy,
             row(c.collection_name, c.creator_address, c.uri, c.lootbox_id)::text AS joined
        FROM ranking_snapshots rs LEFT JOIN collections c ON c.collection_id = rs.collection_id
       ORDER BY rs.ranking, rs.position`.execute(test.db);
    return { copies: rows.map((r) => r.copy), joined: rows.map((r) => r.joined) };
  }
  const counter = async () =>
    Number(
      (
        await sql<{ v: string }>`
          SELECT coalesce(sum(version), 0)::text AS v FROM read_versions WHERE source = 'ranking_snapshots'`.execute(
          test.db,
        )
      ).rows[0]?.v,
    );
  const entry = (collectionId: string) => ({ collectionId, lootboxId: null, score: 1, metrics: {} });

  it('copies on write, follows renames, new and deleted collections, and moves the counter only then', async () => {
    await collection('A', 'Apes');
    await collection('B', 'Bees', 'https://b');
    // The worker's writer, as a ranking run writes: C is not indexed yet.
    await replaceRanking(test.db, 'trending', [entry('A'), entry('B'), entry('C')], {
      computedAt: new Date('2026-11-01T00:00:00Z'),
      windowStart: null,
      windowEnd: null,
    });
    let state = await copiesAndJoin();
    expect(state.copies).toEqual(state.joined);
    expect(state.copies).toEqual(['(Apes,0xc,,)', '(Bees,0xc,https://b,)', '(,,,)']);

    // What a block does to collections every time: nothing a ranking shows. No counter moves.
    let before = await counter();
    await sql`UPDATE collections SET owner_count = owner_count + 1, last_transaction_version = 2`.execute(
      test.db,
    );
    expect(await counter()).toBe(before);

    // A rename, a lootbox learned, a new collection, a deleted one: the copies follow, the counter moves.
    const steps = [
      sql`UPDATE collections SET collection_name = 'Apes II' WHERE collection_id = 'A'`,
      sql`UPDATE collections SET lootbox_id = 7 WHERE collection_id = 'B'`,
      sql`INSERT INTO collections (collection_id, token_standard, creator_address, collection_name,
            created_at, created_version, last_transaction_version)
          VALUES ('C', 'v1', '0xd', 'Cats', now(), 3, 3)`,
      sql`DELETE FROM collections WHERE collection_id = 'B'`,
    ];
    for (const step of steps) {
      before = await counter();
      await step.execute(test.db);
      state = await copiesAndJoin();
      expect(state.copies).toEqual(state.joined);
      expect(await counter()).toBe(before + 1);
    }
    expect(state.copies).toEqual(['("Apes II",0xc,,)', '(,,,)', '(Cats,0xd,,)']);

    // A ranked row moved to another collection takes that one's.
    await sql`UPDATE ranking_snapshots SET collection_id = 'A' WHERE position = 3`.execute(test.db);
    state = await copiesAndJoin();
    expect(state.copies).toEqual(state.joined);

    // TRUNCATE: no collection, no copy.
    await sql`TRUNCATE collections`.execute(test.db);
    state = await copiesAndJoin();
    expect(state.copies).toEqual(['(,,,)', '(,,,)', '(,,,)']);
  });
});
