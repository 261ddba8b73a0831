import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/*
 * A lootbox's pages key on its own counters (functions/bump_lootbox_version.sql): every write to a
 * lootbox table moves the counters of the lootboxes its rows name, under the id and under the
 * (creator, collection name) pair, and no other lootbox's. A row whose lootbox is not stored moves
 * '*', which every scoped key includes.
 */
describe('per-lootbox write counters', () => {
  let test: TestDatabase;
  const CREATOR = `0x${'c1'.padStart(64, '0')}`;
  const counters = async (): Promise<Record<string, number>> => {
    const { rows } = await sql<{ id: string; v: number }>`
      SELECT collection_id || ' ' || source AS id, sum(version)::int AS v FROM read_collection_versions
       WHERE collection_id LIKE 'lootbox:%' OR collection_id = '*' GROUP BY 1`.execute(test.db);
    return Object.fromEntries(rows.map((r) => [r.id, r.v]));
  };
  const moved = async (write: () => Promise<unknown>): Promise<string[]> => {
    const before = await counters();
    await write();
    const after = await counters();
    return Object.keys(after)
      .filter((k) => after[k] !== before[k])
      .sort();
  };
  const lootbox = (id: number, name: string) =>
    sql`INSERT INTO lootboxes (lootbox_id, creator_address, collection_name, collection_id, price, coin_type,
          max_supply, mint_start, created_at, created_version, last_transaction_version)
        VALUES (${id}, ${CREATOR}, ${name}, ${`0x${String(id).padStart(64, '0')}`}, 1, '0x1::aptos_coin::AptosCoin',
          10, now(), now(), ${id}, ${id})`.execute(test.db);

  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  it("moves the lootbox's id and pair counters, and no other lootbox's", async () => {
    expect(await moved(() => lootbox(1, 'Cats'))).toEqual([
      `lootbox:${CREATOR}/Cats lootboxes`,
      'lootbox:1 lootboxes',
    ]);
    await lootbox(2, 'Dogs');
    const tier = () =>
      sql`INSERT INTO lootbox_tiers (lootbox_id, tier_name, position, weight, max_supply) VALUES (2, 'Common', 0, 1, 5)`.execute(
        test.db,
      );
    expect(await moved(tier)).toEqual([`lootbox:${CREATOR}/Dogs lootbox_tiers`, 'lootbox:2 lootbox_tiers']);
    // A purchase moves its lootbox's purchases and kept day sums (written by its trigger).
    const purchase = () =>
      sql`INSERT INTO lootbox_purchases (transaction_version, event_index, lootbox_id, buyer, quantity, amount_paid,
            coin_type, transaction_timestamp) VALUES (9, 0, 1, ${CREATOR}, 1, 5, '0x1::aptos_coin::AptosCoin', now())`.execute(
        test.db,
      );
    expect(await moved(purchase)).toEqual([
      `lootbox:${CREATOR}/Cats lootbox_purchases`,
      `lootbox:${CREATOR}/Cats lootbox_revenue_days`,
      'lootbox:1 lootbox_purchases',
      'lootbox:1 lootbox_revenue_days',
    ]);
    // A statement that changed no row moves nothing.
    expect(
      await moved(() => sql`UPDATE lootbox_tiers SET minted = 1 WHERE lootbox_id = 1`.execute(test.db)),
    ).toEqual([]);
  });

  it("a row whose lootbox is not stored moves '*' (every lootbox's key), and a TRUNCATE does too", async () => {
    const orphan = () =>
      sql`INSERT INTO lootbox_tiers (lootbox_id, tier_name, position, weight, max_supply) VALUES (99, 'Rare', 0, 1, 5)`.execute(
        test.db,
      );
    expect(await moved(orphan)).toEqual(['* lootbox_tiers', 'lootbox:99 lootbox_tiers']);
    expect(await moved(() => sql`TRUNCATE lootbox_tiers`.execute(test.db))).toContain('* lootbox_tiers');
  });
});
