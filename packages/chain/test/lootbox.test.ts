import { describe, expect, it } from 'vitest';
import { DEFAULT_LOOTBOX_ADDRESS, DecodeError, decodeTransaction } from '../src/index';
import { moduleEvent, userTransaction } from '../src/testing';

const options = { marketplaces: [], lootboxAddress: DEFAULT_LOOTBOX_ADDRESS };
const lootbox = (name: string): string => `0x6d72::lootbox::${name}`;
const long = (short: string): string => `0x${short.slice(2).padStart(64, '0')}`;

describe('lootbox events', () => {
  it('decodes all four events with the fields the README lists', () => {
    const tx = userTransaction([
      moduleEvent(lootbox('LootboxCreatedEvent'), {
        lootbox_id: '1',
        creator: '0xc0ffee',
        collection_name: 'Blind Cats',
        collection: { inner: '0xb1' },
        price: '100000000',
        coin_type: '0x1::aptos_coin::AptosCoin',
        max_supply: '1000',
        mint_start_secs: '1740000000',
        mint_end_secs: '0',
        tiers: [
          { name: 'common', weight: '90', max_supply: '900' },
          { name: 'legendary', weight: '10', max_supply: '100' },
        ],
      }),
      moduleEvent(lootbox('LootboxUpdatedEvent'), {
        lootbox_id: '1',
        price: '200000000',
        mint_start_secs: '1740000000',
        mint_end_secs: '1750000000',
        paused: true,
      }),
      moduleEvent(lootbox('LootboxPurchasedEvent'), {
        lootbox_id: '1',
        buyer: '0xb0b',
        quantity: '2',
        amount_paid: '400000000',
        coin_type: '0x1::aptos_coin::AptosCoin',
      }),
      moduleEvent(lootbox('LootboxOpenedEvent'), {
        lootbox_id: '1',
        owner: '0xb0b',
        token: '0xf00d',
        tier: 'legendary',
      }),
      moduleEvent(lootbox('LootboxConfig'), { anything: true }),
    ]);
    const { lootbox: facts } = decodeTransaction(tx, options);
    expect(facts).toEqual([
      {
        version: 1000,
        eventIndex: 0,
        timestampUs: '1740000000000000',
        kind: 'created',
        lootboxId: '1',
        creator: long('0xc0ffee'),
        collectionName: 'Blind Cats',
        collectionId: long('0xb1'),
        price: '100000000',
        coinType: '0x1::aptos_coin::AptosCoin',
        maxSupply: '1000',
        mintStartSecs: '1740000000',
        mintEndSecs: '0',
        tiers: [
          { name: 'common', weight: '90', maxSupply: '900' },
          { name: 'legendary', weight: '10', maxSupply: '100' },
        ],
      },
      {
        version: 1000,
        eventIndex: 1,
        timestampUs: '1740000000000000',
        kind: 'updated',
        lootboxId: '1',
        price: '200000000',
        mintStartSecs: '1740000000',
        mintEndSecs: '1750000000',
        paused: true,
      },
      {
        version: 1000,
        eventIndex: 2,
        timestampUs: '1740000000000000',
        kind: 'purchased',
        lootboxId: '1',
        buyer: long('0xb0b'),
        quantity: '2',
        amountPaid: '400000000',
        coinType: '0x1::aptos_coin::AptosCoin',
      },
      {
        version: 1000,
        eventIndex: 3,
        timestampUs: '1740000000000000',
        kind: 'opened',
        lootboxId: '1',
        owner: long('0xb0b'),
        tokenDataId: long('0xf00d'),
        tier: 'legendary',
      },
    ]);
  });

  it('follows the configured address and ignores the module elsewhere', () => {
    const event = moduleEvent('0xabc::lootbox::LootboxOpenedEvent', {
      lootbox_id: '9',
      owner: '0x1',
      token: '0x2',
      tier: 'rare',
    });
    expect(decodeTransaction(userTransaction([event]), options).lootbox).toEqual([]);
    const moved = decodeTransaction(userTransaction([event]), {
      ...options,
      lootboxAddress: '0xABC',
    }).lootbox;
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({ kind: 'opened', lootboxId: '9', tier: 'rare' });
  });

  it('rejects an event of our own contract that lacks its fields', () => {
    const tx = userTransaction([
      moduleEvent(lootbox('LootboxPurchasedEvent'), { lootbox_id: '1', buyer: '0xb0b' }),
    ]);
    expect(() => decodeTransaction(tx, options)).toThrow(DecodeError);
    expect(() => decodeTransaction(tx, options)).toThrow(/quantity/);
  });
});
