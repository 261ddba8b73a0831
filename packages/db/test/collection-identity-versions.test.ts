import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/*
 * 'collections:identity' (functions/bump_collection_identity_version.sql) moves for a collection's
 * every write but those of its counting columns, globally and for that collection; and a lootbox's
 * counters move for its tokens and their documents (functions/bump_lootbox_version.sql).
 */
describe('the identity counter of collections, and a lootbox tokens and documents', () => {
  let test: TestDatabase;
  const ID = `0x${'a1'.padStart(64, '0')}`;
  const counters = async (): Promise<Record<string, number>> => {
    const { rows } = await sql<{ id: string; v: number }>`
      SELECT 'global ' || source AS id, sum(version)::int AS v FROM read_versions WHERE source = 'collections:identity' GROUP BY 1
      UNION ALL
      SELECT collection_id || ' ' || source, sum(version)::int FROM read_collection_versions
       WHERE source IN ('collections:identity', 'tokens', 'metadata_documents') AND (collection_id LIKE 'lootbox:%' OR source = 'collections:identity')
       GROUP BY 1`.execute(test.db);
    return Object.fromEntries(rows.map((r) => [r.id, r.v]));
  };
  const moved = async (write: string): Promise<string[]> => {
    const before = await counters();
    await sql.raw(write).execute(test.db);
    const after = await counters();
    return Object.keys(after)
      .filter((k) => after[k] !== before[k])
      .sort();
  };

  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  it('moves on a new collection and a rename, not on its counts', async () => {
    expect(
      await moved(`INSERT INTO collections (collection_id, token_standard, creator_address, collection_name, created_at, created_version, last_transaction_version)
                   VALUES ('${ID}', 'v2', '0x1', 'Cats', now(), 1, 1)`),
    ).toEqual([`${ID} collections:identity`, 'global collections:identity']);
    expect(
      await moved(
        `UPDATE collections SET owner_count = 5, current_supply = 9, total_minted = 9, last_transaction_version = 2 WHERE collection_id = '${ID}'`,
      ),
    ).toEqual([]);
    expect(
      await moved(`UPDATE collections SET uri = 'https://example.test/cats' WHERE collection_id = '${ID}'`),
    ).toEqual([`${ID} collections:identity`, 'global collections:identity']);
    expect(await moved(`DELETE FROM collections WHERE collection_id = '${ID}'`)).toEqual([
      `${ID} collections:identity`,
      'global collections:identity',
    ]);
  });

  it("moves a lootbox's counters for its tokens and their documents, and none for a token of no lootbox", async () => {
    await sql`INSERT INTO lootboxes (lootbox_id, creator_address, collection_name, collection_id, price, coin_type,
                max_supply, mint_start, created_at, created_version, last_transaction_version)
              VALUES (3, '0x1', 'Cats', ${ID}, 1, '0x1::aptos_coin::AptosCoin', 10, now(), now(), 1, 1)`.execute(
      test.db,
    );
    const token = (id: string, lootbox: string) =>
      `INSERT INTO tokens (token_data_id, token_standard, collection_id, token_name, lootbox_id, last_transaction_version)
       VALUES ('${id}', 'v2', '${ID}', '${id}', ${lootbox}, 1)`;
    expect(await moved(token('0xt1', '3'))).toEqual(['lootbox:0x1/Cats tokens', 'lootbox:3 tokens']);
    expect(await moved(token('0xt2', 'NULL'))).toEqual([]);
    const document = (subject: string) =>
      `INSERT INTO metadata_documents (kind, subject_id, collection_id, uri, subject_version, status, fetched_at, refresh_at)
       VALUES ('token', '${subject}', '${ID}', 'https://example.test/${subject}', 1, 'ok', now(), now())`;
    expect(await moved(document('0xt1'))).toEqual([
      'lootbox:0x1/Cats metadata_documents',
      'lootbox:3 metadata_documents',
    ]);
    expect(await moved(document('0xt2'))).toEqual([]);
  });
});
