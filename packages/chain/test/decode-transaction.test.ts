import { describe, expect, it } from 'vitest';
import { builtinMarketplaces, DEFAULT_LOOTBOX_ADDRESS, DecodeError, decodeTransaction } from '../src/index';
import { moduleEvent, userTransaction, writeResource } from '../src/testing';

const options = { marketplaces: builtinMarketplaces(), lootboxAddress: DEFAULT_LOOTBOX_ADDRESS };
const long = (short: string): string => `0x${short.slice(2).padStart(64, '0')}`;

const mintAndTransfer = userTransaction(
  [
    moduleEvent('0x4::collection::Mint', { collection: '0xc0', index: { value: '1' }, token: '0x70' }),
    moduleEvent('0x1::object::Transfer', { object: '0x70', from: '0xc4', to: '0xb0b' }),
  ],
  [
    writeResource('0x70', '0x1::object::ObjectCore', { owner: '0xb0b', allow_ungated_transfer: true }),
    writeResource('0x70', '0x4::token::Token', {
      collection: { inner: '0xc0' },
      name: 'T #1',
      description: 'd',
      uri: 'u',
    }),
    writeResource('0xc0', '0x4::collection::Collection', {
      creator: '0xc4',
      name: 'C',
      description: '',
      uri: '',
    }),
    writeResource('0xc0', '0x4::collection::ConcurrentSupply', {
      current_supply: { max_value: '18446744073709551615', value: '1' },
      total_minted: { max_value: '18446744073709551615', value: '1' },
    }),
  ],
);

describe('decodeTransaction', () => {
  it('decodes a v2 mint with its owner, collection and zeroed previous holder', () => {
    const decoded = decodeTransaction(mintAndTransfer, options);
    expect(decoded.tokenActivities.map((a) => [a.kind, a.fromAddress, a.toAddress])).toEqual([
      ['mint', null, long('0xb0b')],
      ['transfer', long('0xc4'), long('0xb0b')],
    ]);
    expect(decoded.ownerships.map((o) => [o.owner, o.amount])).toEqual([
      [long('0xb0b'), '1'],
      [long('0xc4'), '0'],
    ]);
    expect(decoded.collections).toEqual([
      expect.objectContaining({
        collectionId: long('0xc0'),
        currentSupply: '1',
        maxSupply: null,
        totalMinted: '1',
      }),
    ]);
    expect(decoded.tokens).toEqual([
      expect.objectContaining({
        tokenDataId: long('0x70'),
        tokenName: 'T #1',
        collectionName: 'C',
        isSoulbound: false,
      }),
    ]);
  });

  it('gives empty facts for failed and non-user transactions', () => {
    const failed = decodeTransaction({ ...mintAndTransfer, success: false }, options);
    expect(failed).toMatchObject({
      version: 1000,
      success: false,
      tokenActivities: [],
      ownerships: [],
      collections: [],
    });
    const block = decodeTransaction(
      {
        type: 'block_metadata_transaction',
        version: '5',
        timestamp: '1',
        success: true,
        events: [],
        changes: [],
      },
      options,
    );
    expect(block).toMatchObject({ version: 5, success: true, tokens: [], marketActivities: [] });
  });

  it('throws DecodeError with a reason for malformed input only', () => {
    const cases: [unknown, RegExp][] = [
      [null, /not a JSON object/],
      [{ version: '1' }, /no type/],
      [{ ...mintAndTransfer, version: 'x' }, /numeric version/],
      [{ ...mintAndTransfer, timestamp: undefined }, /timestamp/],
      [{ ...mintAndTransfer, events: {} }, /events is not an array/],
      [{ ...mintAndTransfer, changes: undefined }, /changes is not an array/],
      [
        userTransaction([{ type: '0x1::m::E', data: 'x' as unknown as Record<string, unknown> }]),
        /no data object/,
      ],
      [
        userTransaction([moduleEvent('0x3::token::TokenDeposit', { account: '0x1', amount: '1' })]),
        /has no valid id/,
      ],
    ];
    for (const [input, reason] of cases) {
      expect(() => decodeTransaction(input as Record<string, unknown>, options), String(reason)).toThrow(
        DecodeError,
      );
      expect(() => decodeTransaction(input as Record<string, unknown>, options)).toThrow(reason);
    }
    try {
      decodeTransaction({ ...mintAndTransfer, events: {} }, options);
    } catch (error) {
      expect(error).toBeInstanceOf(DecodeError);
      expect((error as DecodeError).version).toBe('1000');
      expect((error as DecodeError).name).toBe('DecodeError');
    }
  });

  it('does not throw on unknown events and undecodable table items', () => {
    const tx = userTransaction(
      [moduleEvent('0x99::anything::Happened', { whatever: [1, 2] })],
      [
        {
          type: 'write_table_item',
          handle: '0x5',
          key: '0x00',
          value: '0x00',
          state_key_hash: '0x0',
          data: null,
        },
      ],
    );
    expect(decodeTransaction(tx, options).tokenActivities).toEqual([]);
  });
});
