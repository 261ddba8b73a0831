import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import { DEFAULT_LOOTBOX_ADDRESS, DEFAULT_MARKETPLACE_ADDRESS } from '@mdq/chain';
import { atVersion, userTransaction } from '@mdq/chain/testing';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { noopNotifier } from '@mdq/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDecoder, memorySource, runIndexer } from '../src/index';

const decode = createDecoder({
  marketplaceAddress: DEFAULT_MARKETPLACE_ADDRESS,
  lootboxAddress: DEFAULT_LOOTBOX_ADDRESS,
});

function userTx(version: number, extra: Record<string, unknown> = {}): TransactionResponse {
  return userTransaction([], [], {
    ...atVersion(version, 1_700_000_000_000_000),
    sender: '0x1',
    ...extra,
  }) as unknown as TransactionResponse;
}

describe('a transaction the decoder cannot handle', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  it('is stored with its reason and does not stop the run', async () => {
    const chain = [
      userTx(10),
      userTx(11, { events: 'not-a-list' }),
      userTx(12, {
        events: [
          {
            type: '0x4::collection::Mint',
            guid: { creation_number: '0', account_address: '0x0' },
            sequence_number: '0',
            data: {},
          },
        ],
      }),
      userTx(13),
    ];
    const stats = await runIndexer({
      db: test.db,
      source: memorySource(chain),
      decode,
      notifier: noopNotifier,
      batchSize: 10,
      untilCaughtUp: true,
    });
    expect(stats).toMatchObject({ transactions: 4, failed: 2, lastVersion: 13 });
    const failed = await test.db
      .selectFrom('failed_transactions')
      .selectAll()
      .orderBy('transaction_version')
      .execute();
    expect(failed.map((f) => f.transaction_version)).toEqual([11, 12]);
    for (const f of failed) expect(f.reason).toMatch(/^DecodeError: .+/);
    expect(failed[0]?.payload).toMatchObject({ version: '11' });
    const checkpoint = await test.db.selectFrom('indexer_checkpoints').selectAll().executeTakeFirst();
    expect(checkpoint?.last_version).toBe(13);
  });
});
