import { describe, expect, it } from 'vitest';
import {
  builtinMarketplaces,
  DEFAULT_LOOTBOX_ADDRESS,
  decodeTransaction,
  SOUFFL3_ADDRESS,
  v1TokenDataId,
} from '../src/index';
import { moduleEvent, userTransaction } from '../src/testing';

const options = { marketplaces: builtinMarketplaces(), lootboxAddress: DEFAULT_LOOTBOX_ADDRESS };
const long = (short: string): string => `0x${short.slice(2).padStart(64, '0')}`;
const APT = '0x1::aptos_coin::AptosCoin';
const event = (name: string) => `${SOUFFL3_ADDRESS}::FixedPriceMarket::${name}<${APT}>`;
const tokenId = {
  token_data_id: { creator: '0xc4', collection: 'Aptos Monkeys', name: 'Monkey #7' },
  property_version: '0',
};

/*
 * Souffl3 as the official legacy nft_orderbooks processor reads it (souffle_parser.py), on
 * hand-built events in its shapes: no real Souffl3 transaction is among the fixtures.
 */
describe('Souffl3 (FixedPriceMarket)', () => {
  const decode = (name: string, data: Record<string, unknown>, sender = '0x5e11') =>
    decodeTransaction(userTransaction([moduleEvent(event(name), data)], [], { sender }), options)
      .marketActivities;

  it('reads a listing with its v1 token, seller, price, amount and coin', () => {
    const [listing] = decode('ListTokenEvent', {
      token_id: tokenId,
      token_owner: '0x5e11',
      coin_per_token: '150000000',
      token_amount: '1',
    });
    expect(listing).toMatchObject({
      marketplace: 'souffl3',
      kind: 'place_listing',
      tokenDataId: v1TokenDataId('0xc4', 'Aptos Monkeys', 'Monkey #7'),
      tokenName: 'Monkey #7',
      collectionName: 'Aptos Monkeys',
      seller: long('0x5e11'),
      price: '150000000',
      tokenAmount: '1',
      coinType: APT,
    });
  });

  it('reads a sale with its buyer, and a cancel whose seller is the transaction’s sender', () => {
    const [sale] = decode(
      'BuyTokenEvent',
      { token_id: tokenId, token_owner: '0x5e11', buyer: '0xb0b', price: '150000000', token_amount: '1' },
      '0xb0b',
    );
    expect(sale).toMatchObject({ kind: 'fill_listing', seller: long('0x5e11'), buyer: long('0xb0b') });
    const [cancel] = decode('CancelListTokenEvent', { token_id: tokenId, token_amount: '1' }, '0x5e11');
    expect(cancel).toMatchObject({ kind: 'cancel_listing', seller: long('0x5e11') });
  });
});
