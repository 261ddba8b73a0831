import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import { DEFAULT_LOOTBOX_ADDRESS, DEFAULT_MARKETPLACE_ADDRESS } from '@mdq/chain';
import { loadFixtureTransactions, testFixturesRoot } from '@mdq/chain/fixtures';
import { createTestDatabase, type TestDatabase, traitCountsDrift } from '@mdq/db/testing';
import { noopNotifier } from '@mdq/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDecoder, memorySource, runIndexer } from '../src/index';
import { stateFingerprint } from './support/db-hash';

const root = testFixturesRoot();
const decode = createDecoder({
  marketplaceAddress: DEFAULT_MARKETPLACE_ADDRESS,
  lootboxAddress: DEFAULT_LOOTBOX_ADDRESS,
});

describe.skipIf(root === null)(
  'exactly-once ingestion of the mainnet fixtures (needs ../shared/fixtures)',
  () => {
    const mainnet = root
      ? (loadFixtureTransactions(root)
          .filter((f) => f.network === 'mainnet')
          .map((f) => f.rest) as unknown as TransactionResponse[])
      : [];
    const source = memorySource(mainnet);
    const versions = mainnet.map((tx) => Number((tx as { version: string }).version)).sort((a, b) => a - b);
    const dbs: TestDatabase[] = [];
    let reference: Record<string, string>;

    beforeAll(async () => {
      const db = await createTestDatabase();
      dbs.push(db);
      const stats = await runIndexer({
        db: db.db,
        source,
        decode,
        notifier: noopNotifier,
        batchSize: 10,
        untilCaughtUp: true,
      });
      expect(stats.transactions).toBe(mainnet.length);
      expect(stats.failed).toBe(0);
      reference = await stateFingerprint(db.db);
    });
    afterAll(async () => {
      for (const db of dbs) await db.drop();
    });

    it('stores every transaction and decodes all of them', () => {
      expect(mainnet.length).toBe(52);
      expect(reference['marketplace_activities']).not.toMatch(/^0:/);
      expect(reference['failed_transactions']).toMatch(/^0:/);
    });

    it('changes nothing when the same range is ingested again', async () => {
      const db = dbs[0] as TestDatabase;
      const first = versions[0] as number;
      const last = versions.at(-1) as number;
      await runIndexer({
        db: db.db,
        source,
        decode,
        notifier: noopNotifier,
        batchSize: 7,
        from: first,
        to: last,
      });
      expect(await stateFingerprint(db.db)).toEqual(reference);
      expect(await traitCountsDrift(db.db)).toEqual([]);
    });

    it('gives the same database for other batch sizes and two overlapping runs', async () => {
      const db = await createTestDatabase();
      dbs.push(db);
      const middle = versions[30] as number;
      const late = versions[12] as number;
      await runIndexer({
        db: db.db,
        source,
        decode,
        notifier: noopNotifier,
        batchSize: 3,
        from: versions[0],
        to: middle,
      });
      await runIndexer({
        db: db.db,
        source,
        decode,
        notifier: noopNotifier,
        batchSize: 5,
        from: late,
        to: versions.at(-1),
      });
      expect(await stateFingerprint(db.db)).toEqual(reference);
      expect(await traitCountsDrift(db.db)).toEqual([]);
    });
  },
);
