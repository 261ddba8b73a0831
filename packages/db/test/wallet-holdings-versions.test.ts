import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, insertCollection, type TestDatabase } from '../src/testing';

/*
 * A wallet's holdings pages key on its bucket's counters (migration 2026-12-15T1000): ownerships
 * count under their owner's bucket, listings under their seller's (functions/bump_wallet_version.sql),
 * and a token's row under the bucket of every wallet with an ownership row (of any amount) or a
 * listing (of any status) of it (functions/bump_wallet_tokens_version.sql). No other bucket moves.
 */
describe('per-wallet counters of holdings', () => {
  let test: TestDatabase;
  const A = '0xa';
  const B = '0xb';
  const C = '0xc';
  const bucket = (wallet: string) => sql<string>`'wallet:' || (hashtext(${wallet}) & 65535)`;
  const counters = async (): Promise<Record<string, number>> => {
    const { rows } = await sql<{ id: string; v: number }>`
      SELECT collection_id || ' ' || source AS id, sum(version)::int AS v FROM read_collection_versions
       WHERE collection_id LIKE 'wallet:%' OR collection_id = '*' GROUP BY 1`.execute(test.db);
    return Object.fromEntries(rows.map((r) => [r.id, r.v]));
  };
  /** The counters a write moved, each as '<wallet or *> <table>'. */
  const moved = async (write: () => Promise<unknown>): Promise<string[]> => {
    const names = new Map<string, string>();
    for (const wallet of [A, B, C]) {
      const { rows } = await sql<{ id: string }>`SELECT ${bucket(wallet)} AS id`.execute(test.db);
      names.set(rows[0]?.id ?? '', wallet);
    }
    const before = await counters();
    await write();
    const after = await counters();
    return Object.keys(after)
      .filter((k) => after[k] !== before[k])
      .map((k) => {
        const [id = '', table] = k.split(' ');
        return `${names.get(id) ?? id} ${table}`;
      })
      .sort();
  };
  const token = (id: string) =>
    sql`INSERT INTO tokens (token_data_id, token_standard, collection_id, creator_address, collection_name,
          token_name, supply, maximum, largest_property_version, is_burned, minted_at, minted_version,
          last_transaction_version)
        VALUES (${id}, 'v2', '0xcol', '0xcreator', 'Cats', ${id}, 1, 1, 0, false, now(), 2, 2)`.execute(
      test.db,
    );
  const ownership = (id: string, owner: string, amount: number) =>
    sql`INSERT INTO token_ownerships (token_data_id, property_version, owner_address, collection_id,
          token_standard, amount, last_transaction_version)
        VALUES (${id}, 0, ${owner}, '0xcol', 'v2', ${amount}, 3)`.execute(test.db);
  const listing = (listingId: string, id: string, seller: string, status: string) =>
    sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, token_standard,
          property_version, collection_id, collection_name, creator_address, token_name, seller, price,
          token_amount, coin_type, status, listed_at, listed_version, last_transaction_version)
        VALUES ('mdq', ${listingId}, '0x6d71', ${id}, 'v2', 0, '0xcol', 'Cats', '0xcreator', ${id}, ${seller},
          10, 1, '0x1::aptos_coin::AptosCoin', ${status}, now(), 4, 4)`.execute(test.db);

  beforeAll(async () => {
    test = await createTestDatabase();
    await insertCollection(test.db, '0xcol', { name: 'Cats', creator: '0xcreator' });
    const { rows } = await sql<{ n: number }>`
      SELECT count(DISTINCT hashtext(w) & 65535)::int AS n FROM unnest(${[A, B, C]}::text[]) AS w`.execute(
      test.db,
    );
    expect(rows[0]?.n).toBe(3);
  });
  afterAll(() => test.drop());

  it("moves an ownership's owner's bucket and a listing's seller's, old and new, and no other", async () => {
    await token('0x1');
    expect(await moved(() => ownership('0x1', A, 1))).toEqual([`${A} token_ownerships`]);
    // A transfer rewrites both rows: both wallets.
    const transfer = () =>
      test.db.transaction().execute(async (trx) => {
        await sql`UPDATE token_ownerships SET amount = 0 WHERE token_data_id = '0x1' AND owner_address = ${A}`.execute(
          trx,
        );
        await sql`INSERT INTO token_ownerships (token_data_id, property_version, owner_address, collection_id,
              token_standard, amount, last_transaction_version) VALUES ('0x1', 0, ${B}, '0xcol', 'v2', 1, 5)`.execute(
          trx,
        );
      });
    expect(await moved(transfer)).toEqual([`${A} token_ownerships`, `${B} token_ownerships`]);
    expect(await moved(() => listing('l1', '0x1', C, 'active'))).toEqual([`${C} listings`]);
    // A listing that changes hands in one update counts for the old seller and the new one.
    const rewrite = () => sql`UPDATE listings SET seller = ${B} WHERE listing_id = 'l1'`.execute(test.db);
    expect(await moved(rewrite)).toEqual([`${B} listings`, `${C} listings`]);
  });

  it("moves, for a token's row, every wallet with an ownership row of it or a listing of it, and no other", async () => {
    await token('0x2');
    await ownership('0x2', A, 1);
    await ownership('0x3', C, 1);
    await listing('l2', '0x2', B, 'cancelled');
    // A holds 0x2, B once listed it; C holds another token only.
    const rename = () =>
      sql`UPDATE tokens SET token_name = 'renamed' WHERE token_data_id = '0x2'`.execute(test.db);
    expect(await moved(rename)).toEqual([`${A} tokens`, `${B} tokens`]);
    // A zero row still shows on a page that lists every row: its wallet moves too.
    await sql`UPDATE token_ownerships SET amount = 0 WHERE token_data_id = '0x2'`.execute(test.db);
    const burn = () => sql`UPDATE tokens SET is_burned = true WHERE token_data_id = '0x2'`.execute(test.db);
    expect(await moved(burn)).toEqual([`${A} tokens`, `${B} tokens`]);
    // A token row written after its ownership row moves its holder; one nobody holds or lists, none
    // (a mint's ownership row, written in its own statement, moves its owner).
    expect(await moved(() => token('0x3'))).toEqual([`${C} tokens`]);
    expect(await moved(() => token('0x4'))).toEqual([]);
  });

  it("a bulk write of more than 64 wallets (a backfill batch) moves '*' alone", async () => {
    const owners = Array.from({ length: 200 }, (_, i) => `0xbulk${i}`);
    const bulk = () =>
      sql`INSERT INTO token_ownerships (token_data_id, property_version, owner_address, collection_id,
            token_standard, amount, last_transaction_version)
          SELECT '0x5', 0, o, '0xcol', 'v2', 1, 6 FROM unnest(${owners}::text[]) AS o`.execute(test.db);
    expect(await moved(bulk)).toEqual(['* token_ownerships']);
    // A token row of those 200 wallets: looked up, they are past 64 too.
    expect(await moved(() => token('0x5'))).toEqual(['* tokens']);
    // So is a batch of more than 64 tokens, which is not looked up.
    const mints = () =>
      sql`INSERT INTO tokens (token_data_id, token_standard, collection_id, creator_address, collection_name,
            token_name, supply, maximum, largest_property_version, is_burned, minted_at, minted_version,
            last_transaction_version)
          SELECT '0xm' || i, 'v2', '0xcol', '0xcreator', 'Cats', 'm' || i, 1, 1, 0, false, now(), 7, 7
            FROM generate_series(1, 65) AS i`.execute(test.db);
    expect(await moved(mints)).toEqual(['* tokens']);
    // An update names each row twice (old and new): 40 tokens of one holder are 40, not 80, and
    // move that holder's bucket, not '*'.
    const held = () =>
      sql`INSERT INTO token_ownerships (token_data_id, property_version, owner_address, collection_id,
            token_standard, amount, last_transaction_version)
          SELECT '0xm' || i, 0, ${A}, '0xcol', 'v2', 1, 8 FROM generate_series(1, 40) AS i`.execute(test.db);
    await held();
    const renameForty = () =>
      sql`UPDATE tokens SET token_name = token_name || '!'
           WHERE token_data_id IN (SELECT '0xm' || i FROM generate_series(1, 40) AS i)`.execute(test.db);
    expect(await moved(renameForty)).toEqual([`${A} tokens`]);
  });

  it("TRUNCATE moves '*' of the table, which every wallet's key includes", async () => {
    expect(await moved(() => sql`TRUNCATE listings`.execute(test.db))).toEqual(['* listings']);
  });
});
