import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import {
  type AptosTransaction,
  builtinMarketplaces,
  createRelevanceFilter,
  DEFAULT_LOOTBOX_ADDRESS,
  DEFAULT_MARKETPLACE_ADDRESS,
  type DecodedTransaction,
  decodeTransaction,
} from '@mdq/chain';
import { loadFixtureTransactions, testFixturesRoot } from '@mdq/chain/fixtures';
import { createTestDatabase, stateFingerprint } from '@mdq/db/testing';
import { streamTransactions } from '@mdq/devnet';
import { noopNotifier } from '@mdq/jobs';
import { afterAll, describe, expect, it } from 'vitest';
import { createDecoder, memorySource, runIndexer } from '../src/index';

/*
 * The early skip: transactions that touch no token, marketplace or lootbox module are recognised
 * from their event and write-set types and never fully decoded. None of ours may be skipped: every
 * skipped transaction decodes (fully) to no facts, and a database indexed with the skip equals one
 * indexed without it, table for table.
 */
const dbs: { drop(): Promise<void> }[] = [];
afterAll(async () => {
  for (const db of dbs) await db.drop();
});

const hasFacts = (d: DecodedTransaction) =>
  d.collections.length +
    d.tokens.length +
    d.tokenActivities.length +
    d.ownerships.length +
    d.tableHandles.length +
    d.pendingClaims.length +
    d.marketActivities.length +
    d.lootbox.length +
    d.burnedTokens.length >
  0;

async function fingerprint(txs: readonly AptosTransaction[], addresses: Addresses, prefilter: boolean) {
  const test = await createTestDatabase();
  dbs.push(test);
  const stats = await runIndexer({
    db: test.db,
    source: memorySource(txs as TransactionResponse[]),
    decode: createDecoder({ ...addresses, prefilter }),
    notifier: noopNotifier,
    batchSize: 50,
    untilCaughtUp: true,
  });
  return { stats, tables: await stateFingerprint(test.db) };
}

interface Addresses {
  marketplaceAddress: string;
  lootboxAddress: string;
}

/** How many the filter skips; fails when it would skip a transaction that has facts. */
function checkSkips(txs: readonly AptosTransaction[], addresses: Addresses): number {
  const options = {
    marketplaces: builtinMarketplaces(addresses.marketplaceAddress),
    lootboxAddress: addresses.lootboxAddress,
  };
  const relevant = createRelevanceFilter(options);
  let skipped = 0;
  for (const tx of txs) {
    if (relevant(tx)) continue;
    skipped += 1;
    const version = (tx as { version: string }).version;
    expect(hasFacts(decodeTransaction(tx, options)), `version ${version} skipped but has facts`).toBe(false);
  }
  return skipped;
}

const root = testFixturesRoot();

describe.skipIf(root === null)(
  'early skip on the recorded mainnet fixtures (needs ../shared/fixtures)',
  () => {
    const fixtures = root ? loadFixtureTransactions(root) : [];
    const txs = fixtures.map((f) => f.rest as AptosTransaction);
    const mainnet = {
      marketplaceAddress: DEFAULT_MARKETPLACE_ADDRESS,
      lootboxAddress: DEFAULT_LOOTBOX_ADDRESS,
    };

    it('skips no transaction that has facts', () => {
      expect(txs.length).toBeGreaterThan(50);
      checkSkips(txs, mainnet);
    });

    it('gives every table identical with and without the skip', async () => {
      const recorded = fixtures.filter((f) => f.network === 'mainnet').map((f) => f.rest as AptosTransaction);
      const withSkip = await fingerprint(recorded, mainnet, true);
      const without = await fingerprint(recorded, mainnet, false);
      expect(withSkip.stats.transactions).toBe(recorded.length);
      expect(withSkip.tables).toEqual(without.tables);
    }, 120_000);
  },
);

describe('early skip on a generated mainnet-shaped mix', () => {
  const chain = { seed: 9, transactionsCount: 1_500, noiseShare: 0.8 };
  const txs = [...streamTransactions(chain)] as unknown as AptosTransaction[];
  const devnet = {
    marketplaceAddress: DEFAULT_MARKETPLACE_ADDRESS,
    lootboxAddress: DEFAULT_LOOTBOX_ADDRESS,
  };

  it('skips exactly the APT transfers and the block system transactions, nothing that has facts', () => {
    const transfers = txs.filter(
      (tx) =>
        (tx as { payload?: { function?: string } }).payload?.function === '0x1::aptos_account::transfer',
    ).length;
    const users = txs.filter((tx) => (tx as { type: string }).type === 'user_transaction').length;
    // Block metadata, validator and epilogue transactions carry only 0x1 types: skipped as well.
    const system = txs.filter((tx) => {
      const type = (tx as { type: string }).type;
      return type !== 'user_transaction' && type !== 'genesis_transaction';
    }).length;
    expect(system).toBeGreaterThan(0);
    expect(transfers / users).toBeGreaterThan(0.7);
    expect(checkSkips(txs, devnet)).toBe(transfers + system);
  });

  it('gives every table identical with and without the skip, checkpoint at the last version', async () => {
    const withSkip = await fingerprint(txs, devnet, true);
    const without = await fingerprint(txs, devnet, false);
    expect(withSkip.stats.lastVersion).toBe(txs.length - 1);
    expect(withSkip.tables['marketplace_activities']).not.toMatch(/^0:/);
    expect(withSkip.tables).toEqual(without.tables);
  }, 180_000);
});
