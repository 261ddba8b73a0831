import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTION_COUNT_COLUMNS } from '../src/queries/freshness';
import {
  columnsRead,
  compileRootField,
  explainPlan,
  INDEXER_TABLES,
  type IndexerTable,
  operationReads,
  type RelationScan,
  type RootField,
  relationScans,
  type Selection,
} from '../src/read';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/*
 * The API caches a /v1/graphql answer under the write counters of what operationReads says its
 * statement reads, and keys some of them on one collection's or wallet's counters. A table read
 * but not named would let a write to it go unnoticed; a scoped read of rows outside the scope
 * would too. Every table is asked here for each column alone and with every relation (two deep),
 * under each scope its description names, and each statement's plan (EXPLAIN) says what it reads.
 */

const ID = `0x${'1'.repeat(64)}`;
const CREATOR = `0x${'2'.repeat(64)}`;

/** A version's time, looked up by the version a row names: not counted (tables.ts, versionTime). */
const VERSION_LOOKUP = /\btransaction_version = \w+\.last_transaction_version\b/;

const tableOf = (name: string) => INDEXER_TABLES.find((t) => t.name === name) as IndexerTable;
const columnsOf = (table: IndexerTable): Selection =>
  Object.keys(table.columns).map((column) => ({ key: column, column }));

/** Every column of `table` and, `depth` relations deep, of every related table. */
function everything(table: IndexerTable, depth: number): Selection {
  const relations = depth === 0 ? [] : Object.entries(table.relations);
  return [
    ...columnsOf(table),
    ...relations.map(([name, r]) => ({
      key: name,
      relation: name,
      selection: everything(tableOf(r.target), depth - 1),
    })),
  ];
}

/** Each `where` that scopes `table`'s rows by its description, and none. */
function scopedWheres(table: IndexerTable): [string, Record<string, unknown> | null][] {
  const s = table.scopes;
  return [
    ['no scope', null],
    ...(s.collection ? [[`collection ${s.collection}`, { [s.collection]: { _eq: ID } }] as const] : []),
    ...(s.token ? [[`token ${s.token}`, { [s.token]: { _eq: ID } }] as const] : []),
    ...(s.pair
      ? [['pair', { _and: [{ [s.pair[0]]: { _eq: CREATOR } }, { [s.pair[1]]: { _eq: 'Cats' } }] }] as const]
      : []),
    ...(s.wallets ?? []).map((w) => [`wallet ${w}`, { [w]: { _eq: ID } }] as const),
  ] as [string, Record<string, unknown> | null][];
}

/**
 * How a scoped read must read its table for the scope's counters to count its rows: by the
 * collection, the token or the pair (bump_collection_version and bump_token_row_collection_version
 * count a row under its collection, or its token's), or by the wallet columns
 * functions/bump_wallet_version.sql names, and a token by the token id of a wallet's row
 * (bump_wallet_tokens_version). A join condition names the row it joins to: that the row is the
 * scope's is what the compiled SQL states, which a reviewer of compile.ts confirms.
 */
const SCOPE_READS: Record<'collection' | 'wallet', (relation: string) => RegExp> = {
  collection: () => /\b(collection_id|token_data_id)\s*=|creator_address\s*=[\s\S]*collection_name\s*=/,
  wallet: (relation) =>
    relation === 'tokens'
      ? /\btoken_data_id\s*=\s*\w+\.token_data_id\b/
      : /\b(owner_address|seller|buyer)\s*=/,
};

describe('operationReads names what each /v1/graphql statement reads', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t?.drop());

  /** The scans of a field's statement; `collections` without its counting columns as its identity counter. */
  async function scansOf(field: RootField): Promise<RelationScan[]> {
    const compiled = sql`SELECT (${compileRootField(field)}) AS j`.compile(t.db);
    const plan = await t.db.transaction().execute(async (trx) => {
      // Nested loops only: each scan then carries its own join conditions.
      await sql`SET LOCAL enable_hashjoin = off`.execute(trx);
      await sql`SET LOCAL enable_mergejoin = off`.execute(trx);
      return explainPlan(trx, compiled.sql, compiled.parameters, { verbose: true });
    });
    const identityOnly = columnsRead(plan, 'collections', COLLECTION_COUNT_COLUMNS).length === 0;
    return relationScans(plan)
      .filter((s) => !(s.conditions.length > 0 && s.conditions.every((c) => VERSION_LOOKUP.test(c))))
      .map((s) =>
        s.relation === 'collections' && identityOnly ? { ...s, relation: 'collections:identity' } : s,
      );
  }

  async function check(field: RootField): Promise<void> {
    const reads = operationReads([field]);
    const scans = await scansOf(field);
    const named = new Set(reads.tables);
    if (named.has('collections')) named.add('collections:identity');
    const undeclared = [...new Set(scans.map((s) => s.relation))].filter((r) => !named.has(r));
    expect(undeclared, `read but not named: ${JSON.stringify(field.selection).slice(0, 200)}`).toEqual([]);
    const scope = reads.scope;
    if (!scope) return;
    const scoped = new Set(scope.tables);
    if (scoped.has('collections')) scoped.add('collections:identity');
    const outside = scans.filter(
      (s) => scoped.has(s.relation) && !s.conditions.some((c) => SCOPE_READS[scope.kind](s.relation).test(c)),
    );
    expect(outside, 'keyed on the scope, read by other than it').toEqual([]);
  }

  for (const table of INDEXER_TABLES) {
    for (const [scope, where] of scopedWheres(table)) {
      it(`${table.name}, ${scope}: each column alone, then everything two relations deep`, async () => {
        for (const selection of [...columnsOf(table).map((c) => [c]), everything(table, 2)]) {
          await check({ kind: 'rows', table: table.name, selection, where, limit: 10 });
        }
        await check({
          kind: 'aggregate',
          table: table.name,
          selection: [{ key: 'aggregate', aggregate: [{ key: 'count', count: {} }] }],
          where,
          limit: null,
        });
      });
    }
  }

  it("keys the SDK's owned tokens on the wallet, its tokens with it, and its tokens' collections on theirs", () => {
    const owned = operationReads([
      {
        kind: 'rows',
        table: 'current_token_ownerships_v2',
        where: { owner_address: { _eq: ID }, amount: { _gt: 0 } },
        limit: 100,
        selection: [
          { key: 'amount', column: 'amount' },
          { key: 'last_transaction_timestamp', column: 'last_transaction_timestamp' },
          {
            key: 'current_token_data',
            relation: 'current_token_data',
            selection: [
              { key: 'token_name', column: 'token_name' },
              {
                key: 'current_collection',
                relation: 'current_collection',
                selection: [{ key: 'current_supply', column: 'current_supply' }],
              },
            ],
          },
        ],
      },
    ]);
    expect(owned).toEqual({
      tables: ['collections', 'token_ownerships', 'tokens'],
      scope: { kind: 'wallet', selector: { wallet: ID }, tables: ['token_ownerships', 'tokens'] },
    });
  });

  it("keys a token's data on its collection, its collection's identity alone when no count is shown", () => {
    const field = (selection: Selection): RootField => ({
      kind: 'rows',
      table: 'current_token_datas_v2',
      where: { token_data_id: { _eq: ID } },
      limit: 1,
      selection: [
        { key: 'token_name', column: 'token_name' },
        { key: 'current_collection', relation: 'current_collection', selection },
      ],
    });
    expect(operationReads([field([{ key: 'collection_name', column: 'collection_name' }])])).toEqual({
      tables: ['collections:identity', 'tokens'],
      scope: { kind: 'collection', selector: { token: ID }, tables: ['collections:identity', 'tokens'] },
    });
    expect(operationReads([field([{ key: 'current_supply', column: 'current_supply' }])]).tables).toEqual([
      'collections',
      'tokens',
    ]);
  });

  it('keys on the global counters an id not in stored form, an _or, and fields of two scopes', () => {
    const token = (where: Record<string, unknown>): RootField => ({
      kind: 'rows',
      table: 'current_token_datas_v2',
      where,
      limit: 1,
      selection: [{ key: 'token_name', column: 'token_name' }],
    });
    expect(operationReads([token({ token_data_id: { _eq: '0x1' } })]).scope).toBeUndefined();
    expect(operationReads([token({ _or: [{ token_data_id: { _eq: ID } }] })]).scope).toBeUndefined();
    const other = `0x${'3'.repeat(64)}`;
    expect(
      operationReads([token({ token_data_id: { _eq: ID } }), token({ token_data_id: { _eq: other } })]).scope,
    ).toBeUndefined();
    expect(
      operationReads([token({ token_data_id: { _eq: ID } }), token({ token_data_id: { _eq: ID } })]).scope
        ?.tables,
    ).toEqual(['tokens']);
  });
});
