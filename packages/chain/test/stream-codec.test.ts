import { describe, expect, it } from 'vitest';
import { listFixtureFiles, loadFixtureTransaction } from '../src/fixtures/index';
import { decodeTransaction } from '../src/index';
import { ProtoTransaction, protoFromJson, restToProto, streamedToRest } from '../src/stream/index';
import { FIXTURES, NO_FIXTURES, OPTIONS, SKIP_REASON } from './fixture-context';

const files = NO_FIXTURES ? [] : listFixtureFiles(FIXTURES);

/**
 * The gRPC path end to end on real transactions: the fixture's proto3 JSON is encoded to protobuf
 * bytes (as the Transaction Stream sends them), decoded, and converted by the same converter the
 * fixtures' REST form comes from. Both forms must give the same REST JSON and the same decode.
 */
describe.skipIf(NO_FIXTURES)('every fixture in both forms: JSON and protobuf bytes', () => {
  it('covers all 55 fixtures', () => expect(files).toHaveLength(55));

  it.each(files)('%s', (file) => {
    const fixture = loadFixtureTransaction(file, FIXTURES);
    const bytes = ProtoTransaction.encode(protoFromJson(fixture.proto)).finish();
    expect(bytes.length).toBeGreaterThan(100);
    const streamed = streamedToRest(ProtoTransaction.decode(bytes));
    expect(streamed).toEqual(fixture.rest);
    expect(decodeTransaction(streamed, OPTIONS)).toEqual(decodeTransaction(fixture.rest, OPTIONS));
  });
});

if (NO_FIXTURES) describe.skip(SKIP_REASON, () => {});

describe.skipIf(NO_FIXTURES)('restToProto inverts protoToRest on every fixture', () => {
  it.each(files)('%s', (file) => {
    const fixture = loadFixtureTransaction(file, FIXTURES);
    const bytes = ProtoTransaction.encode(protoFromJson(restToProto(fixture.rest))).finish();
    expect(streamedToRest(ProtoTransaction.decode(bytes))).toEqual(fixture.rest);
  });
});
