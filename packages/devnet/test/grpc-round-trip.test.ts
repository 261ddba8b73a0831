import { ProtoTransaction, protoFromJson, restToProto, streamedToRest } from '@mdq/chain/stream';
import { describe, expect, it } from 'vitest';
import { DevnetChain } from '../src/index';

/* What the devnet's gRPC server sends must come back as exactly the REST transaction it serves. */
describe('generated transactions through protobuf', () => {
  it('converts every transaction of a small chain back to the same REST JSON', () => {
    // Both block endings; every block's metadata and epilogue, and a validator transaction.
    const transactions = (['epilogue', 'state_checkpoint'] as const).flatMap((blockEnding) => {
      const chain = new DevnetChain({ seed: 3, preset: 'tiny', blockEnding });
      return chain.range(0, chain.world.timeline.initialVersions);
    });
    const types = new Set(transactions.map((t) => t.type));
    expect([...types].sort()).toEqual([
      'block_epilogue_transaction',
      'block_metadata_transaction',
      'state_checkpoint_transaction',
      'user_transaction',
      'validator_transaction',
    ]);
    for (const tx of transactions) {
      const bytes = ProtoTransaction.encode(protoFromJson(restToProto(tx))).finish();
      const back = streamedToRest(ProtoTransaction.decode(bytes));
      if (tx.type !== 'user_transaction') {
        expect(back).toEqual(tx);
        continue;
      }
      // The raw BCS of table items is not carried by the stream (the decoder reads `data`).
      const changes = (tx as { changes: Record<string, unknown>[] }).changes.map((c) =>
        c['type'] === 'write_table_item' ? { ...c, value: '0x' } : c,
      );
      expect(back).toEqual({ ...tx, changes });
    }
  });
});
