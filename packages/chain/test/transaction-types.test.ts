import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import {
  blockEpilogueTransaction,
  blockMetadataTransaction,
  dkgValidatorTransaction,
  genesisTransaction,
  scheduledTransaction,
  stateCheckpointTransaction,
  unknownTransaction,
  validatorTransaction,
} from '../src/fixtures/index';
import { createRelevanceFilter, decodeTransaction } from '../src/index';
import {
  ProtoTransaction,
  type ProtoTransactionType,
  protoFromJson,
  restToProto,
  streamedToRest,
  TRANSACTION_KINDS,
} from '../src/stream/index';
import { OPTIONS } from './fixture-context';

const TIME = '1764000000123456';
const EXAMPLES: Record<string, Record<string, unknown>> = {
  genesis: genesisTransaction(),
  block_metadata: blockMetadataTransaction(10, 5, TIME),
  state_checkpoint: stateCheckpointTransaction(11, TIME),
  validator_jwk: validatorTransaction(12, TIME),
  validator_dkg: dkgValidatorTransaction(13, TIME),
  block_epilogue: blockEpilogueTransaction(14, TIME),
  scheduled: scheduledTransaction(15, TIME),
  unknown_type_99: unknownTransaction(16, TIME, 99),
};

/*
 * aptos-core's .proto files loaded at run time by protobufjs: an encoder independent of the
 * ts-proto code mdq generated from the same files, so a field our generator (or we) got wrong
 * would not round-trip.
 */
const protoRoot = fileURLToPath(new URL('../proto/', import.meta.url));
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => `${protoRoot}${target}`;
root.loadSync('aptos/transaction/v1/transaction.proto');
const AptosTransaction = root.lookupType('aptos.transaction.v1.Transaction');

describe('every transaction type round-trips REST → protobuf bytes → REST', () => {
  it('has an example of every type this build knows', () => {
    const types = new Set(Object.values(EXAMPLES).map((tx) => tx['type']));
    for (const kind of TRANSACTION_KINDS)
      if (kind.rest !== 'user_transaction') expect(types).toContain(kind.rest);
  });

  it.each(Object.entries(EXAMPLES))('%s through the generated codec', (_name, rest) => {
    const bytes = ProtoTransaction.encode(protoFromJson(restToProto(rest))).finish();
    expect(streamedToRest(ProtoTransaction.decode(bytes))).toEqual(rest);
  });

  it.each(Object.entries(EXAMPLES))('%s encoded by protobufjs from the aptos-core .proto', (_name, rest) => {
    const message = AptosTransaction.fromObject(restToProto(rest));
    const bytes = AptosTransaction.encode(message).finish();
    expect(streamedToRest(ProtoTransaction.decode(bytes))).toEqual(rest);
  });
});

describe('system and unknown transactions in the decoder', () => {
  it.each(Object.entries(EXAMPLES))('%s decodes to no facts, without a failure', (_name, rest) => {
    const decoded = decodeTransaction(rest, OPTIONS);
    expect(decoded.version).toBe(Number(rest['version']));
    expect(decoded.tokenActivities).toEqual([]);
    expect(decoded.marketActivities).toEqual([]);
  });

  it('passes a type number it has never seen on as an opaque transaction, version kept', () => {
    const message = ProtoTransaction.decode(
      ProtoTransaction.encode({
        ...protoFromJson(restToProto(stateCheckpointTransaction(77, TIME))),
        type: 57 as ProtoTransactionType,
      }).finish(),
    );
    expect(streamedToRest(message)).toMatchObject({
      type: 'unknown_transaction',
      proto_type: 57,
      version: '77',
      timestamp: TIME,
      success: true,
    });
  });

  it('reads a system transaction’s events: a token event on one is decoded, not dropped', () => {
    const scheduled = scheduledTransaction(20, TIME);
    scheduled['events'] = [
      {
        guid: { creation_number: '0', account_address: '0x0' },
        sequence_number: '0',
        type: '0x1::object::Transfer',
        data: { object: '0x70', from: '0xc4', to: '0xb0b' },
      },
    ];
    scheduled['changes'] = [
      {
        type: 'write_resource',
        address: '0x70',
        state_key_hash: '0x00',
        data: {
          type: '0x4::token::Token',
          data: { collection: { inner: '0xc0' }, name: 'T #1', description: '', uri: '' },
        },
      },
    ];
    expect(createRelevanceFilter(OPTIONS)(scheduled)).toBe(true);
    expect(decodeTransaction(scheduled, OPTIONS).tokenActivities.map((a) => a.kind)).toEqual(['transfer']);
  });

  it('rules a block’s metadata and epilogue out before decoding (0x1 types only)', () => {
    const relevant = createRelevanceFilter(OPTIONS);
    expect(relevant(blockMetadataTransaction(10, 5, TIME))).toBe(false);
    expect(relevant(blockEpilogueTransaction(14, TIME))).toBe(false);
  });
});
