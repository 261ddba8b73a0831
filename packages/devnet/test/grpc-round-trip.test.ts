import { ProtoTransaction, protoFromJson, restToProto, streamedToRest } from '@mdq/chain/stream';
import { describe, expect, it } from 'vitest';
import { DevnetChain } from '../src/index';

/* What the devnet's gRPC server sends must come back as exactly the REST transaction it serves. */
describe('generated transactions through protobuf', () => {
  it('converts every transaction of a small chain back to the same REST JSON', () => {
    const chain = new DevnetChain({ seed: 3, preset: 'tiny' });
    chain.prepare();
    const transactions = chain.range(0, chain.config.transactionsCount);
    expect(transactions.length).toBeGreaterThan(100);
    for (const tx of transactions) {
      const bytes = ProtoTransaction.encode(protoFromJson(restToProto(tx))).finish();
      const back = streamedToRest(ProtoTransaction.decode(bytes));
      // The raw BCS of table items is not carried by the stream (the decoder reads `data`).
      const changes = (tx as { changes: Record<string, unknown>[] }).changes.map((c) =>
        c['type'] === 'write_table_item' ? { ...c, value: '0x' } : c,
      );
      expect(back).toEqual({ ...tx, changes });
    }
  });
});
