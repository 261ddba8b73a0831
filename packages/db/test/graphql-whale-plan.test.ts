import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, type Db } from '../src/database';
import { compileRootField, createIndexerGraphqlDb } from '../src/queries/indexer-graphql';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/*
 * A wallet that once held many tokens and holds few: the planner multiplies the owner's share of
 * the ownership rows by the share of rows held, expects thousands of matches spread through the
 * table, and under the Indexer GraphQL's LIMIT (no ORDER BY) reads the table from its start. The
 * GraphQL's own pool (createIndexerGraphqlDb, as the API makes it) prices index pages as cached, and
 * takes the owner's index.
 */
const WHALE = `0x${'a'.repeat(64)}`;
const HELD = 16;

describe("the Indexer GraphQL's owned tokens of a wallet that sold most of what it held", () => {
  let t: TestDatabase;
  let graphql: Db | undefined;
  beforeAll(async () => {
    t = await createTestDatabase();
    // 40,000 ownerships of the whale with nothing left, 16 held, and 60,000 of 3,000 other wallets.
    await sql`
      INSERT INTO token_ownerships (token_data_id, owner_address, collection_id, token_standard, amount, last_transaction_version)
      SELECT 'sold' || i, ${WHALE}, 'c' || (i % 50), 'v2', 0, i FROM generate_series(1, 40000) i
      UNION ALL SELECT 'held' || i, ${WHALE}, 'c' || (i % 50), 'v2', 1, i FROM generate_series(1, ${HELD}) i
      UNION ALL SELECT 'other' || i, '0x' || lpad(to_hex(i % 3000), 64, '0'), 'c' || (i % 50), 'v2', 1, i
        FROM generate_series(1, 60000) i`.execute(t.db);
    await sql`ANALYZE token_ownerships`.execute(t.db);
    graphql = createIndexerGraphqlDb(t.db, { connections: 1, statementTimeoutMs: 60_000 });
  }, 120_000);
  afterAll(async () => {
    if (graphql) await closeDb(graphql);
    await t?.drop();
  });

  // What `getAccountOwnedTokens` of @aptos-labs/ts-sdk asks, as the API compiles it (the cap as its limit).
  const owned = compileRootField({
    kind: 'rows',
    table: 'current_token_ownerships_v2',
    selection: [
      { key: 'token_data_id', column: 'token_data_id' },
      { key: 'amount', column: 'amount' },
    ],
    where: { owner_address: { _eq: WHALE }, amount: { _gt: 0 } },
    limit: 1000,
  });
  const plan = async (db: Db) => {
    const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${owned}`.execute(db);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  };

  it('is read from the owner index on the GraphQL pool, where the default costs scan the table', async () => {
    // The fixture reproduces the misestimate: with Postgres' default page costs, a sequential scan.
    expect(await plan(t.db)).toMatch(/Seq Scan on token_ownerships/);
    const ours = await plan(graphql as Db);
    expect(ours).not.toMatch(/Seq Scan on token_ownerships/);
    expect(ours).toMatch(/Index Scan using ownerships_owner /);
    const { rows } = await sql<{ j: string }>`${owned}`.execute(graphql as Db);
    expect(JSON.parse(rows[0]?.j ?? '[]')).toHaveLength(HELD);
  });
});
