import { type DevnetServer, startDevnetServer, startGrpcServer } from '@mdq/devnet';
import { beforeAll, describe, expect, it } from 'vitest';
import { fullnodeSource } from '../src/index';
import { index, servers, viaGrpc } from './support/index-both-ways';
import { mainnetShaped, serveRest, streamedChain } from './support/mainnet-shaped';

/*
 * A chain shaped as mainnet's (genesis; blocks of metadata, users and epilogue; validator and
 * scheduled transactions now and then; an older state-checkpoint ending; once a type number this
 * build has never seen) indexes to the tip over REST and over the Transaction Stream, filtered or
 * not, also through a stream that breaks: every table identical. The stream's messages are encoded
 * by code generated from aptos-core's .proto files.
 */
describe('a mainnet-shaped chain with every transaction type', () => {
  const CHAIN_ID = 4;
  let devnet: DevnetServer;
  let chain: Record<string, unknown>[];
  let rest: Awaited<ReturnType<typeof index>>;
  let restUrl: string;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    // Half the users touch no NFT (coin transfers, swaps), as most of mainnet's do.
    devnet = await startDevnetServer({
      seed: 21,
      preset: 'tiny',
      blockIntervalMs: 0,
      port: 0,
      noiseShare: 0.5,
    });
    servers.push(devnet);
    const users: Record<string, unknown>[] = [];
    const read = fullnodeSource(devnet.url);
    for (let next = 0; next <= devnet.ledgerVersion(); ) {
      const page = await read.fetch(next, 1_000);
      users.push(
        ...(page as unknown as Record<string, unknown>[]).filter((tx) => tx['type'] === 'user_transaction'),
      );
      next = Number((page.at(-1) as { version: string }).version) + 1;
    }
    chain = mainnetShaped(users);
    const served = await serveRest(chain, CHAIN_ID);
    closers.push(served.close);
    restUrl = served.url;
    rest = await index(fullnodeSource(restUrl, { chainId: CHAIN_ID }), devnet);
    return async () => {
      for (const close of closers) await close();
    };
  }, 180_000);

  const stream = async (faults?: { seed: number; breakRate: number; refuseCalls: number }) => {
    const server = await startGrpcServer(streamedChain(chain, CHAIN_ID), {
      port: 0,
      host: '127.0.0.1',
      chainId: CHAIN_ID,
      ...(faults ? { faults } : {}),
    });
    closers.push(server.close);
    return server;
  };

  it('holds every type, and indexes to the tip over REST without a failure', () => {
    const types = new Set(chain.map((tx) => tx['type']));
    expect([...types].sort()).toEqual([
      'block_epilogue_transaction',
      'block_metadata_transaction',
      'genesis_transaction',
      'scheduled_transaction',
      'state_checkpoint_transaction',
      'unknown_transaction',
      'user_transaction',
      'validator_transaction',
    ]);
    expect(rest.stats.transactions).toBe(chain.length);
    expect(rest.stats.unknownTypes).toBe(1);
    expect(rest.stats.failed).toBe(0);
    expect(rest.fingerprint['marketplace_activities']).not.toMatch(/^0:/);
  });

  it('gives the same tables over the Transaction Stream', async () => {
    const server = await stream();
    const grpc = await index(viaGrpc(devnet, { grpcUrl: server.url, tipUrl: restUrl }), devnet);
    expect(grpc.stats.transactions).toBe(chain.length);
    expect(grpc.stats.unknownTypes).toBe(1);
    expect(grpc.fingerprint).toEqual(rest.fingerprint);
  });

  it('gives the same tables over a filtered stream, which skips most of the chain', async () => {
    const server = await stream();
    const grpc = await index(
      viaGrpc(devnet, { grpcUrl: server.url, tipUrl: restUrl, filteredFor: devnet }),
      devnet,
    );
    // Every system transaction and the users that touch no NFT stay on the server.
    const users = chain.filter((tx) => tx['type'] === 'user_transaction').length;
    expect(grpc.stats.transactions).toBeLessThan(users * 0.75);
    expect(grpc.stats.lastVersion).toBe(chain.length - 1);
    expect(grpc.fingerprint).toEqual(rest.fingerprint);
  });

  it('gives the same tables over a filtered stream that breaks and refuses calls', async () => {
    const server = await stream({ seed: 9, breakRate: 0.35, refuseCalls: 2 });
    const grpc = await index(
      viaGrpc(devnet, { grpcUrl: server.url, tipUrl: restUrl, filteredFor: devnet }),
      devnet,
    );
    expect(server.faultsInjected()).toBeGreaterThanOrEqual(2);
    expect(grpc.stats.lastVersion).toBe(chain.length - 1);
    expect(grpc.fingerprint).toEqual(rest.fingerprint);
  });
});
