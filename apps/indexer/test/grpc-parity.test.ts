import { startDevnetServer } from '@mdq/devnet';
import { beforeAll, describe, expect, it } from 'vitest';
import { fullnodeSource } from '../src/index';
import { index, servers, viaGrpc } from './support/index-both-ways';

/*
 * The same chain read through the fullnode REST routes and through the gRPC Transaction Stream must
 * give the same database, table for table (row counts and order-independent checksums) — also when
 * the gRPC server breaks its streams at random points and refuses calls for a while.
 */
describe('devnet chain: REST and gRPC give identical databases', () => {
  // One origin for both servers: a chain names its documents at its server's address (port 0 differs).
  const chain = {
    seed: 21,
    preset: 'tiny' as const,
    blockIntervalMs: 0,
    port: 0,
    grpcPort: 0,
    metadataOrigin: 'http://127.0.0.1:8090',
  };
  let rest: Awaited<ReturnType<typeof index>>;
  let clean: Awaited<ReturnType<typeof startDevnetServer>>;

  beforeAll(async () => {
    clean = await startDevnetServer(chain);
    servers.push(clean);
    rest = await index(fullnodeSource(clean.url), clean);
  }, 180_000);

  it('indexes the whole chain through REST without a failure', () => {
    expect(rest.stats.transactions).toBe(clean.ledgerVersion() + 1);
    expect(rest.stats.failed).toBe(0);
    expect(rest.fingerprint['marketplace_activities']).not.toMatch(/^0:/);
    expect(rest.fingerprint['collection_floor_changes']).not.toMatch(/^0:/);
  });

  it('gets every table identical through gRPC', async () => {
    const grpc = await index(viaGrpc(clean), clean);
    expect(grpc.stats.transactions).toBe(rest.stats.transactions);
    expect(grpc.fingerprint).toEqual(rest.fingerprint);
  });

  it('gets every table identical through a filtered stream (the devnet server applies the filter)', async () => {
    const grpc = await index(viaGrpc(clean, { filteredFor: clean }), clean);
    expect(grpc.stats.lastVersion).toBe(rest.stats.lastVersion);
    expect(grpc.fingerprint).toEqual(rest.fingerprint);
  });

  it('gets every table identical when the gRPC server breaks streams and refuses calls', async () => {
    const faulty = await startDevnetServer({
      ...chain,
      grpcFaults: { seed: 5, breakRate: 0.35, refuseCalls: 3 },
    });
    servers.push(faulty);
    const grpc = await index(viaGrpc(faulty), faulty);
    expect(faulty.grpcFaultsInjected()).toBeGreaterThanOrEqual(3);
    expect(grpc.stats.transactions).toBe(rest.stats.transactions);
    expect(grpc.fingerprint).toEqual(rest.fingerprint);
  });
});
