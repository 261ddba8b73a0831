import { join } from 'node:path';
import { testFixturesRoot } from '@mdq/chain/fixtures';
import { startDevnetServer } from '@mdq/devnet';
import { describe, expect, it } from 'vitest';
import { fullnodeSource } from '../src/index';
import { index, servers, viaGrpc } from './support/index-both-ways';

/* The recorded mainnet transactions served by the devnet both ways must index into identical tables. */
const root = testFixturesRoot();
describe.skipIf(root === null)('recorded mainnet fixtures: REST and gRPC give identical databases', () => {
  it('indexes the recorded transactions both ways into identical tables', async () => {
    const recorded = await startDevnetServer({
      port: 0,
      grpcPort: 0,
      transactionsDir: join(root as string, 'transactions'),
    });
    servers.push(recorded);
    const rest = await index(fullnodeSource(recorded.url, { sparse: true }), recorded);
    // A recorded chain has gaps between versions (the hosted stream has none).
    const grpc = await index(viaGrpc(recorded, { contiguous: false }), recorded);
    expect(rest.stats.transactions).toBe(55);
    expect(grpc.stats.transactions).toBe(55);
    expect(rest.fingerprint['marketplace_activities']).not.toMatch(/^0:/);
    expect(grpc.fingerprint).toEqual(rest.fingerprint);
  });
});
