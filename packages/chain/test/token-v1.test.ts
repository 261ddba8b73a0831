import { describe, expect, it } from 'vitest';
import { DEFAULT_LOOTBOX_ADDRESS, decodeTransaction, v1CollectionId, v1TokenDataId } from '../src/index';
import { moduleEvent, userTransaction, writeResource } from '../src/testing';

const options = { marketplaces: [], lootboxAddress: DEFAULT_LOOTBOX_ADDRESS };
const long = (short: string): string => `0x${short.slice(2).padStart(64, '0')}`;
const dataId = { creator: '0xc4', collection: 'Cats', name: 'Cat #1' };
const tokenId = { token_data_id: dataId, property_version: '0' };

describe('token v1 module events and table items (hand-built)', () => {
  const tx = userTransaction(
    [
      moduleEvent('0x3::token::CreateCollection', {
        creator: '0xc4',
        collection_name: 'Cats',
        uri: 'https://cats',
        description: 'cats',
        maximum: '10',
      }),
      moduleEvent('0x3::token::TokenDataCreation', {
        creator: '0xc4',
        id: dataId,
        description: 'a cat',
        maximum: '1',
        uri: 'https://cats/1',
        name: 'Cat #1',
        property_keys: ['color'],
        property_values: ['0x03726564'],
        property_types: ['0x1::string::String'],
      }),
      moduleEvent('0x3::token::Mint', { creator: '0xc4', id: dataId, amount: '1' }),
      moduleEvent('0x3::token::TokenDeposit', { account: '0xc4', id: tokenId, amount: '1' }),
      moduleEvent('0x3::token::MutatePropertyMap', {
        account: '0xc4',
        old_id: tokenId,
        new_id: { token_data_id: dataId, property_version: '1' },
        keys: ['level'],
        values: ['0x0200000000000000'],
        types: ['u64'],
      }),
    ],
    [
      writeResource('0xc4', '0x3::token::TokenStore', { tokens: { handle: '0x70' } }),
      writeResource('0xc4', '0x3::token::Collections', {
        collection_data: { handle: '0xcd' },
        token_data: { handle: '0x7d' },
      }),
      {
        type: 'write_table_item',
        handle: '0x70',
        key: '0x00',
        value: '0x00',
        state_key_hash: '0x0',
        data: {
          key: { token_data_id: dataId, property_version: '1' },
          key_type: '0x3::token::TokenId',
          value: {
            amount: '1',
            id: { token_data_id: dataId, property_version: '1' },
            token_properties: {
              map: { data: [{ key: 'level', value: { type: 'u64', value: '0x0200000000000000' } }] },
            },
          },
          value_type: '0x3::token::Token',
        },
      },
      {
        type: 'delete_table_item',
        handle: '0x70',
        key: '0x00',
        state_key_hash: '0x0',
        data: { key: tokenId, key_type: '0x3::token::TokenId' },
      },
      {
        type: 'write_table_item',
        handle: '0xcd',
        key: '0x00',
        value: '0x00',
        state_key_hash: '0x0',
        data: {
          key: 'Cats',
          key_type: '0x1::string::String',
          value: { name: 'Cats', description: 'cats', uri: 'https://cats', supply: '1', maximum: '10' },
          value_type: '0x3::token::CollectionData',
        },
      },
    ],
  );
  const decoded = decodeTransaction(tx, options);
  const id = v1TokenDataId('0xc4', 'Cats', 'Cat #1');

  it('maps the module events to activities with the named accounts', () => {
    expect(
      decoded.tokenActivities.map((a) => [a.kind, a.fromAddress, a.toAddress, a.propertyVersion]),
    ).toEqual([
      ['create', long('0xc4'), null, '0'],
      ['mint', long('0xc4'), null, '0'],
      ['deposit', null, long('0xc4'), '0'],
      ['mutate', long('0xc4'), null, '1'],
    ]);
    expect(decoded.tokenActivities.every((a) => a.tokenDataId === id)).toBe(true);
  });

  it('reads balances, handles and the collection from the write set', () => {
    expect(decoded.tableHandles.map((h) => [h.handle, h.kind])).toEqual([
      [long('0x70'), 'token_store'],
      [long('0xcd'), 'collections'],
      [long('0x7d'), 'collections'],
    ]);
    expect(
      decoded.ownerships.map((o) => [o.owner, o.propertyVersion, o.amount, o.tokenProperties ?? null]),
    ).toEqual([
      [long('0xc4'), '1', '1', { level: '2' }],
      [long('0xc4'), '0', '0', null],
    ]);
    expect(decoded.collections).toEqual([
      expect.objectContaining({
        collectionId: v1CollectionId('0xc4', 'Cats'),
        currentSupply: '1',
        maxSupply: '10',
      }),
    ]);
  });

  it('falls back to the create event for token data the write set does not show', () => {
    expect(decoded.tokens).toEqual([
      expect.objectContaining({
        tokenDataId: id,
        tokenName: 'Cat #1',
        properties: { color: 'red' },
        maximum: '1',
      }),
    ]);
  });
});

/*
 * `0x3::token::burn` (aptos-token/sources/token.move): withdraws the copies, emits the burn event
 * (`Burn { account, id, amount }` after the module-event migration), and when the token data
 * tracks its supply (maximum > 0) and the supply reaches 0, removes the TokenData table item.
 */
describe('token v1 burns (hand-built, shaped as token.move writes them)', () => {
  const burnEvent = (type: string) =>
    moduleEvent(
      type,
      type === '0x3::token::Burn'
        ? { account: '0xb0', id: tokenId, amount: '1' }
        : { id: tokenId, amount: '1' },
    );
  const deleteTokenData = {
    type: 'delete_table_item',
    handle: '0x7d',
    key: '0x00',
    state_key_hash: '0x0',
    data: { key: dataId, key_type: '0x3::token::TokenDataId' },
  };
  const catId = v1TokenDataId('0xc4', 'Cats', 'Cat #1');

  it('a burn that deletes the TokenData burns the token for good', () => {
    for (const type of ['0x3::token::Burn', '0x3::token::BurnToken']) {
      const decoded = decodeTransaction(userTransaction([burnEvent(type)], [deleteTokenData]), options);
      expect([type, decoded.burnedTokens, decoded.v1BurnedUnlessHeld]).toEqual([type, [catId], undefined]);
      expect(decoded.tokenActivities).toEqual([
        expect.objectContaining({ kind: 'burn', tokenDataId: catId, eventType: type, amount: '1' }),
      ]);
    }
    const burn = decodeTransaction(
      userTransaction([burnEvent('0x3::token::Burn')], [deleteTokenData]),
      options,
    );
    expect(burn.tokenActivities[0]?.fromAddress).toBe(long('0xb0'));
  });

  it('a burn that leaves the TokenData (untracked supply) leaves the verdict to the balances', () => {
    const decoded = decodeTransaction(userTransaction([burnEvent('0x3::token::Burn')]), options);
    expect(decoded.burnedTokens).toEqual([]);
    expect(decoded.v1BurnedUnlessHeld).toEqual([catId]);
  });

  it('a TokenData deleted without a burn event is not a burn', () => {
    const decoded = decodeTransaction(userTransaction([], [deleteTokenData]), options);
    expect(decoded.burnedTokens).toEqual([]);
    expect(decoded.v1BurnedUnlessHeld).toBeUndefined();
  });
});
