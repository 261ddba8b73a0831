import { describe, expect, it } from 'vitest';
import { loadFixtureTransactions, protoToRest, readFixtureJson, renderMoveType } from '../src/fixtures/index';
import { FIXTURES, NO_FIXTURES } from './fixture-context';

const b64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');

const proto = {
  timestamp: { seconds: '1739970113', nanos: 672146999 },
  version: '2386142672',
  type: 'TRANSACTION_TYPE_USER',
  info: {
    hash: b64('ab'.repeat(32)),
    stateChangeHash: b64('01'.repeat(32)),
    eventRootHash: b64('02'.repeat(32)),
    accumulatorRootHash: b64('03'.repeat(32)),
    gasUsed: '10',
    success: true,
    vmStatus: 'Executed successfully',
    changes: [
      {
        type: 'TYPE_WRITE_RESOURCE',
        writeResource: {
          address: '0xe89fe778',
          stateKeyHash: b64('04'.repeat(32)),
          typeStr: '0x1::object::ObjectCore',
          data: '{"owner":"0x1","allow_ungated_transfer":true}',
        },
      },
      {
        type: 'TYPE_DELETE_RESOURCE',
        deleteResource: { address: '0x5', stateKeyHash: b64('05'), typeStr: '0x1::object::ObjectGroup' },
      },
      {
        type: 'TYPE_WRITE_TABLE_ITEM',
        writeTableItem: {
          stateKeyHash: b64('06'),
          handle: '0x77',
          key: '0x0102',
          data: {
            key: '"k"',
            keyType: '0x1::string::String',
            value: '{"amount":"1"}',
            valueType: '0x3::token::Token',
          },
        },
      },
      {
        type: 'TYPE_DELETE_TABLE_ITEM',
        deleteTableItem: {
          stateKeyHash: b64('07'),
          handle: '0x77',
          key: '0x03',
          data: { key: '"gone"', keyType: 'u8' },
        },
      },
    ],
  },
  user: {
    request: {
      sender: '0xf05f',
      maxGasAmount: '20',
      gasUnitPrice: '100',
      expirationTimestampSecs: { seconds: '1739970201' },
      payload: {
        type: 'TYPE_ENTRY_FUNCTION_PAYLOAD',
        entryFunctionPayload: {
          entryFunctionIdStr: '0xe11c::biddings_v2::cancel_token_bid',
          typeArguments: [
            {
              type: 'MOVE_TYPES_STRUCT',
              struct: { address: '0x1', module: 'aptos_coin', name: 'AptosCoin' },
            },
          ],
          arguments: ['{"inner":"0x892b"}', '"7"'],
        },
      },
      signature: { type: 'TYPE_ED25519', ed25519: { publicKey: b64('aa'), signature: b64('bb') } },
    },
    events: [
      {
        key: { creationNumber: '19', accountAddress: '0x00e11c' },
        sequenceNumber: '3873',
        typeStr: '0xe11c::biddings_v2::DeleteTokenBidEvent',
        data: '{"price":"3000000000"}',
      },
      { key: { accountAddress: '0x0' }, typeStr: '0x4::collection::Mint', data: '{"token":"0x9"}' },
    ],
  },
};

describe('protoToRest (README §5.3)', () => {
  const rest = protoToRest(proto);

  it('converts the envelope', () => {
    expect(rest).toMatchObject({
      type: 'user_transaction',
      version: '2386142672',
      hash: `0x${'ab'.repeat(32)}`,
      state_change_hash: `0x${'01'.repeat(32)}`,
      event_root_hash: `0x${'02'.repeat(32)}`,
      accumulator_root_hash: `0x${'03'.repeat(32)}`,
      state_checkpoint_hash: null,
      gas_used: '10',
      success: true,
      sender: '0xf05f',
      sequence_number: '0', // absent proto default
      expiration_timestamp_secs: '1739970201',
      timestamp: '1739970113672146', // nanos floored to µs
    });
  });

  it('converts the payload and signature', () => {
    expect(rest['payload']).toEqual({
      type: 'entry_function_payload',
      function: '0xe11c::biddings_v2::cancel_token_bid',
      type_arguments: ['0x1::aptos_coin::AptosCoin'],
      arguments: [{ inner: '0x892b' }, '7'],
    });
    expect(rest['signature']).toEqual({ type: 'ed25519_signature', public_key: '0xaa', signature: '0xbb' });
  });

  it('parses double-encoded event data and restores module-event guids', () => {
    expect(rest['events']).toEqual([
      {
        guid: { creation_number: '19', account_address: '0xe11c' },
        sequence_number: '3873',
        type: '0xe11c::biddings_v2::DeleteTokenBidEvent',
        data: { price: '3000000000' },
      },
      {
        guid: { creation_number: '0', account_address: '0x0' },
        sequence_number: '0',
        type: '0x4::collection::Mint',
        data: { token: '0x9' },
      },
    ]);
  });

  it('converts write-set changes', () => {
    expect(rest['changes']).toEqual([
      {
        type: 'write_resource',
        address: '0xe89fe778',
        state_key_hash: `0x${'04'.repeat(32)}`,
        data: { type: '0x1::object::ObjectCore', data: { owner: '0x1', allow_ungated_transfer: true } },
      },
      {
        type: 'delete_resource',
        address: '0x5',
        state_key_hash: '0x05',
        resource: '0x1::object::ObjectGroup',
      },
      {
        type: 'write_table_item',
        state_key_hash: '0x06',
        handle: '0x77',
        key: '0x0102',
        value: '0x',
        data: {
          key: 'k',
          key_type: '0x1::string::String',
          value: { amount: '1' },
          value_type: '0x3::token::Token',
        },
      },
      {
        type: 'delete_table_item',
        state_key_hash: '0x07',
        handle: '0x77',
        key: '0x03',
        data: { key: 'gone', key_type: 'u8' },
      },
    ]);
  });

  it('treats an absent success flag as false (proto3 omits defaults)', () => {
    const failed = protoToRest({ ...proto, info: { ...proto.info, success: undefined } });
    expect(failed['success']).toBe(false);
  });

  it('renders Move types like the REST API', () => {
    expect(renderMoveType({ type: 'MOVE_TYPES_VECTOR', vector: { type: 'MOVE_TYPES_U8' } })).toBe(
      'vector<u8>',
    );
    expect(
      renderMoveType({
        type: 'MOVE_TYPES_REFERENCE',
        reference: { mutable: true, to: { type: 'MOVE_TYPES_SIGNER' } },
      }),
    ).toBe('&mut signer');
    expect(
      renderMoveType({
        type: 'MOVE_TYPES_STRUCT',
        struct: {
          address: '0x1',
          module: 'coin',
          name: 'CoinStore',
          genericTypeParams: [{ type: 'MOVE_TYPES_GENERIC_TYPE_PARAM', genericTypeParamIndex: 1 }],
        },
      }),
    ).toBe('0x1::coin::CoinStore<T1>');
  });
});

describe.skipIf(NO_FIXTURES)('protoToRest on the recorded fixtures', () => {
  it('reproduces the hash and timestamp listed in fixtures-index.json for every file', () => {
    const index = readFixtureJson('fixtures-index.json', FIXTURES) as {
      transactions: { file: string; hash: string; timestamp_usecs: string; sender: string }[];
    };
    const byFile = new Map(index.transactions.map((entry) => [entry.file, entry]));
    const fixtures = loadFixtureTransactions(FIXTURES);
    expect(fixtures).toHaveLength(55);
    for (const fixture of fixtures) {
      const entry = byFile.get(fixture.file);
      expect(entry, fixture.file).toBeDefined();
      expect(fixture.rest['hash']).toBe(entry?.hash);
      expect(fixture.rest['timestamp']).toBe(entry?.timestamp_usecs);
      expect(fixture.rest['type']).toBe('user_transaction');
    }
  });
});
