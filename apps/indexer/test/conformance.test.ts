import { appendFileSync } from 'node:fs';
import { DEFAULT_LOOTBOX_ADDRESS, DEFAULT_MARKETPLACE_ADDRESS } from '@mdq/chain';
import { findFixtureTransaction, testFixturesRoot } from '@mdq/chain/fixtures';
import { type Db, sql } from '@mdq/db';
import { writeBatch } from '@mdq/db/ingest';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDecoder, toBatch } from '../src/index';
import { DEVIATIONS, type Diff } from './support/deviations';
import { type ExpectedCase, expectedCases, norm, readExpected } from './support/expected';

/*
 * Stored-row conformance: each official expected-output case runs its transactions (in its order,
 * one batch each) into an empty database through the real decoder and writer, and the rows mdq
 * stores must match the official processor's rows on the fields both models share. Differences
 * are allowed only where docs/CONFORMANCE.md lists a deliberate deviation (support/deviations.ts).
 */
const root = testFixturesRoot();
const decode = createDecoder({
  marketplaceAddress: DEFAULT_MARKETPLACE_ADDRESS,
  lootboxAddress: DEFAULT_LOOTBOX_ADDRESS,
});

type Rows = Record<string, string | null>[];

describe.skipIf(root === null)('stored rows match the official processors (needs ../shared/fixtures)', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test?.drop());

  const cases = root ? expectedCases(root) : [];
  const used = usedIds;
  it('finds every expected case', () => {
    expect(cases.length).toBe(40);
    for (const c of cases) expect(c.versions.length, c.name).toBeGreaterThan(0);
  });

  for (const c of cases) {
    it(`${c.processor}/${c.name}`, async () => {
      await reset(test.db);
      for (const version of c.versions) {
        const tx = findFixtureTransaction(version).rest;
        const decoded = decode(tx as never);
        await writeBatch(test.db, toBatch('conformance', version, [decoded]));
      }
      const diffs = await compareCase(test.db, c);
      const allowed = DEVIATIONS.filter((d) => d.matches(c.processor, c.name));
      const unexplained = diffs.filter((diff) => {
        const by = allowed.find((d) => d.explains(diff));
        if (by) used.add(by.id);
        return by === undefined;
      });
      const dump = process.env['CONFORMANCE_DUMP'];
      if (dump) appendFileSync(dump, `${JSON.stringify({ case: c.name, diffs: unexplained })}\n`);
      expect(unexplained).toEqual([]);
    });
  }
});

describe.skipIf(root === null)('the deviation list', () => {
  it('has no stale entry (each one explains a difference)', () => {
    // Runs after the cases above (vitest runs a file's tests in order).
    expect(DEVIATIONS.map((d) => d.id).filter((id) => !usedIds.has(id))).toEqual([]);
  });
});

const usedIds = new Set<string>();

async function reset(db: Db): Promise<void> {
  await sql`TRUNCATE collections, tokens, token_attributes, token_ownerships, table_handle_owners, token_pending_claims,
    token_activities, marketplace_activities, listings, token_offers, collection_offers, indexer_checkpoints`.execute(
    db,
  );
}

async function compareCase(db: Db, c: ExpectedCase): Promise<Diff[]> {
  if (c.processor === 'token_v2_processor') {
    return [
      ...compare(
        'token_activities_v2',
        readExpected(c.dir, 'token_activities_v2'),
        await q(
          db,
          sql`
        SELECT transaction_version, event_index, token_data_id, property_version AS property_version_v1,
               event_type AS type_, from_address, to_address, amount AS token_amount FROM token_activities`,
        ),
        ['transaction_version', 'event_index'],
        ['token_data_id', 'property_version_v1', 'type_', 'from_address', 'to_address', 'token_amount'],
      ),
      ...compare(
        'current_token_ownerships_v2',
        readExpected(c.dir, 'current_token_ownerships_v2'),
        await q(
          db,
          sql`
        SELECT token_data_id, property_version AS property_version_v1, owner_address, amount FROM token_ownerships`,
        ),
        ['token_data_id', 'property_version_v1', 'owner_address'],
        ['amount'],
      ),
      ...compare(
        'current_token_datas_v2',
        readExpected(c.dir, 'current_token_datas_v2'),
        await q(
          db,
          sql`
        SELECT token_data_id, collection_id, token_name, token_uri, token_standard FROM tokens`,
        ),
        ['token_data_id'],
        ['collection_id', 'token_name', 'token_uri', 'token_standard'],
      ),
      ...compare(
        'current_collections_v2',
        readExpected(c.dir, 'current_collections_v2'),
        await q(
          db,
          sql`
        SELECT collection_id, creator_address, collection_name, max_supply, total_minted AS total_minted_v2,
               current_supply, token_standard FROM collections`,
        ),
        ['collection_id'],
        [
          'creator_address',
          'collection_name',
          'max_supply',
          'total_minted_v2',
          'current_supply',
          'token_standard',
        ],
      ),
      ...compare(
        'current_token_pending_claims',
        readExpected(c.dir, 'current_token_pending_claims'),
        await q(
          db,
          sql`
        SELECT token_data_id, property_version, from_address, to_address, amount FROM token_pending_claims`,
        ),
        ['token_data_id', 'property_version', 'from_address', 'to_address'],
        ['amount'],
      ),
    ];
  }
  return [
    ...compare(
      'nft_marketplace_activities',
      readExpected(c.dir, 'nft_marketplace_activities'),
      await q(
        db,
        sql`
      SELECT transaction_version AS txn_version, event_index AS index, kind AS standard_event_type, raw_event_type,
             token_data_id, collection_id, token_name, price, buyer, seller, listing_id, offer_id, marketplace,
             contract_address FROM marketplace_activities`,
      ),
      ['txn_version', 'index'],
      [
        'standard_event_type',
        'raw_event_type',
        'token_data_id',
        'collection_id',
        'token_name',
        'price',
        'buyer',
        'seller',
        'listing_id',
        'offer_id',
        'marketplace',
        'contract_address',
      ],
    ),
    ...compare(
      'current_nft_marketplace_listings',
      readExpected(c.dir, 'current_nft_marketplace_listings'),
      await q(
        db,
        sql`
      SELECT token_data_id, listing_id, collection_id, seller, price, token_name, marketplace, contract_address,
             (status <> 'active')::text AS is_deleted FROM listings`,
      ),
      ['listing_id'],
      [
        'token_data_id',
        'collection_id',
        'seller',
        'price',
        'token_name',
        'marketplace',
        'contract_address',
        'is_deleted',
      ],
    ),
    ...compare(
      'current_nft_marketplace_token_offers',
      readExpected(c.dir, 'current_nft_marketplace_token_offers'),
      await q(
        db,
        sql`
      SELECT token_data_id, offer_id, collection_id, buyer, price, token_name, marketplace, contract_address,
             (status <> 'active')::text AS is_deleted FROM token_offers`,
      ),
      ['offer_id'],
      [
        'token_data_id',
        'collection_id',
        'buyer',
        'price',
        'token_name',
        'marketplace',
        'contract_address',
        'is_deleted',
      ],
    ),
    ...compare(
      'current_nft_marketplace_collection_offers',
      readExpected(c.dir, 'current_nft_marketplace_collection_offers'),
      await q(
        db,
        sql`
      SELECT offer_id AS collection_offer_id, collection_id, buyer, price, remaining_amount AS remaining_token_amount,
             marketplace, contract_address, (status <> 'active')::text AS is_deleted FROM collection_offers`,
      ),
      ['collection_offer_id'],
      [
        'collection_id',
        'buyer',
        'price',
        'remaining_token_amount',
        'marketplace',
        'contract_address',
        'is_deleted',
      ],
    ),
  ];
}

async function q(db: Db, query: ReturnType<typeof sql>): Promise<Rows> {
  const { rows } = await query.execute(db);
  return (rows as Record<string, unknown>[]).map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, norm(v)])),
  );
}

function compare(
  table: string,
  expected: Record<string, unknown>[],
  actual: Rows,
  keys: string[],
  fields: string[],
): Diff[] {
  const keyOf = (row: Record<string, unknown>) => keys.map((k) => norm(row[k])).join('|');
  const stored = new Map(actual.map((r) => [keyOf(r), r]));
  const diffs: Diff[] = [];
  const seen = new Set<string>();
  for (const exp of expected) {
    const key = keyOf(exp);
    seen.add(key);
    const row = stored.get(key);
    if (!row) {
      diffs.push({ table, key, field: '(row)', expected: 'present', actual: 'missing' });
      continue;
    }
    for (const field of fields) {
      if (!(field in exp)) continue;
      const want = norm(exp[field]);
      const got = row[field] ?? null;
      if (want !== got) diffs.push({ table, key, field, expected: want, actual: got });
    }
  }
  for (const key of stored.keys()) {
    if (!seen.has(key)) diffs.push({ table, key, field: '(row)', expected: 'absent', actual: 'extra' });
  }
  return diffs;
}
