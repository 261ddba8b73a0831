import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import {
  BLUEMOVE_ADDRESS,
  DEFAULT_LOOTBOX_ADDRESS,
  DEFAULT_MARKETPLACE_ADDRESS,
  v1TokenDataId,
} from '@mdq/chain';
import { atVersion, entryFunction, moduleEvent, userTransaction } from '@mdq/chain/testing';
import { sql } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { noopNotifier } from '@mdq/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDecoder, memorySource, runIndexer } from '../src/index';

/*
 * Bluemove's `marketplaceV2::BuyEvent { id, buyer_address }` names neither price nor seller (the
 * official legacy nft_orderbooks processor takes both from the listing it stored). mdq stores the
 * sale at the price and with the seller of the listing it closes, whether the listing was placed in
 * an earlier batch or in the same one, and the seller no longer holds the escrowed token. Event shapes: see packages/chain/test/bluemove-topaz.test.ts.
 */
const decode = createDecoder({
  marketplaceAddress: DEFAULT_MARKETPLACE_ADDRESS,
  lootboxAddress: DEFAULT_LOOTBOX_ADDRESS,
});
const SELLER = `0x${'5e11'.padStart(64, '0')}`;
const BUYER = `0x${'b0'.padStart(64, '0')}`;
const tokenIdOf = (name: string) => ({
  token_data_id: { creator: '0xc4', collection: 'Bruh Bears', name },
  property_version: '0',
});

function tx(version: number, type: string, data: Record<string, unknown>): TransactionResponse {
  return userTransaction([moduleEvent(`${BLUEMOVE_ADDRESS}::${type}`, data)], [], {
    ...atVersion(version),
    sender: SELLER,
    payload: entryFunction(`${BLUEMOVE_ADDRESS}::marketplaceV2::batch_buy_script`),
  }) as unknown as TransactionResponse;
}
const list = (version: number, name: string, price: string) =>
  tx(version, 'marketplaceV2::ListEvent', {
    id: tokenIdOf(name),
    amount: price,
    seller_address: SELLER,
    royalty_payee: '0xc4',
    royalty_numerator: '5',
    royalty_denominator: '100',
  });
const buy = (version: number, name: string) =>
  tx(version, 'marketplaceV2::BuyEvent', { id: tokenIdOf(name), buyer_address: BUYER });

describe('Bluemove sales through the indexer', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test?.drop());

  it('stores a BuyEvent at its listing’s price and seller, listed in an earlier batch or the same one', async () => {
    const chain = [
      list(10, 'Bruh Bear #1', '250000000'),
      buy(11, 'Bruh Bear #1'),
      list(12, 'Bruh Bear #2', '180000000'),
      buy(13, 'Bruh Bear #2'),
    ];
    // The first pair one transaction per batch, then the second pair in one batch.
    const first = await runIndexer({
      db: test.db,
      source: memorySource(chain.slice(0, 2)),
      decode,
      notifier: noopNotifier,
      batchSize: 1,
      untilCaughtUp: true,
    });
    expect(first.failed).toBe(0);
    await runIndexer({
      db: test.db,
      source: memorySource(chain),
      decode,
      notifier: noopNotifier,
      batchSize: 10,
      untilCaughtUp: true,
    });
    const { rows } = await sql<{ token_data_id: string; price: string; seller: string; buyer: string }>`
      SELECT token_data_id, price::text, seller, buyer FROM marketplace_activities
       WHERE kind = 'fill_listing' ORDER BY transaction_version`.execute(test.db);
    expect(rows).toEqual([
      {
        token_data_id: v1TokenDataId('0xc4', 'Bruh Bears', 'Bruh Bear #1'),
        price: '250000000',
        seller: SELLER,
        buyer: BUYER,
      },
      {
        token_data_id: v1TokenDataId('0xc4', 'Bruh Bears', 'Bruh Bear #2'),
        price: '180000000',
        seller: SELLER,
        buyer: BUYER,
      },
    ]);
    const listings = await sql<{ status: string; price: string }>`
      SELECT status, price::text FROM listings WHERE marketplace = 'bluemove' ORDER BY listed_version`.execute(
      test.db,
    );
    expect(listings.rows).toEqual([
      { status: 'sold', price: '250000000' },
      { status: 'sold', price: '180000000' },
    ]);
    // Listed, each token counted for its seller (escrow); sold, the seller holds none of it.
    const held = await sql<{ amount: string }>`
      SELECT amount::text FROM token_ownerships WHERE owner_address = ${SELLER} ORDER BY token_data_id`.execute(
      test.db,
    );
    expect(held.rows).toEqual([{ amount: '0' }, { amount: '0' }]);
  });
});
