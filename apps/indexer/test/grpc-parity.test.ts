import { join } from 'node:path';
import { fixturesRoot } from '@mdq/chain/fixtures';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { noopNotifier } from '@mdq/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChainSource,
  createDecoder,
  fullnodeSource,
  grpcSource,
  type IndexerStats,
  runIndexer,
} from '../src/index';
import { stateFingerprint } from './support/db-hash';

/*
 * The same chain read through the fullnode REST routes and through the gRPC Transaction Stream must
 * give the same database, table for table (row counts and order-independent checksums) — also when
 * the gRPC server breaks its streams at random points and refuses calls for a while.
 */
const dbs: TestDatabase[] = [];
const servers: DevnetServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  for (const db of dbs) await db.drop();
});

async function index(
  source: ChainSource & { close?: () => void },
  decodeFor: DevnetServer,
): Promise<{ stats: IndexerStats; fingerprint: Record<string, string> }> {
  const test = await createTestDatabase();
  dbs.push(test);
  const config = decodeFor.chain?.config;
  const decode = createDecoder({
    marketplaceAddress: config?.marketplaceAddress ?? '',
    lootboxAddress: config?.lootboxAddress ?? '',
  });
  try {
    const stats = await runIndexer({
      db: test.db,
      source,
      decode,
      notifier: noopNotifier,
      batchSize: 97,
      untilCaughtUp: true,
    });
    return { stats, fingerprint: await stateFingerprint(test.db) };
  } finally {
    source.close?.();
  }
}

const viaGrpc = (devnet: DevnetServer, options: { contiguous?: boolean } = {}) =>
  grpcSource({
    url: devnet.grpcUrl as string,
    tip: fullnodeSource(devnet.url).tip,
    batchSize: 40,
    idleMs: 300,
    backoffMs: 20,
    maxBackoffMs: 200,
    ...options,
  });

describe('devnet chain: REST and gRPC give identical databases', () => {
  const chain = { seed: 21, preset: 'tiny' as const, blockIntervalMs: 0, port: 0, grpcPort: 0 };
  let rest: Awaited<ReturnType<typeof index>>;
  let clean: DevnetServer;

  beforeAll(async () => {
    clean = await startDevnetServer(chain);
    servers.push(clean);
    rest = await index(fullnodeSource(clean.url), clean);
  }, 180_000);

  it('indexes the whole chain through REST without a failure', () => {
    expect(rest.stats.transactions).toBe(clean.ledgerVersion() + 1);
    expect(rest.stats.failed).toBe(0);
    expect(rest.fingerprint['marketplace_activities']).not.toMatch(/^0:/);
  });

  it('gets every table identical through gRPC', async () => {
    const grpc = await index(viaGrpc(clean), clean);
    expect(grpc.stats.transactions).toBe(rest.stats.transactions);
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

const root = fixturesRoot();
describe.skipIf(root === null)('recorded mainnet fixtures: REST and gRPC give identical databases', () => {
  it('indexes the recorded transactions both ways into identical tables', async () => {
    const recorded = await startDevnetServer({
      port: 0,
      grpcPort: 0,
      transactionsDir: join(root as string, 'transactions'),
    });
    servers.push(recorded);
    const rest = await index(fullnodeSource(recorded.url), recorded);
    // A recorded chain has gaps between versions (the hosted stream has none).
    const grpc = await index(viaGrpc(recorded, { contiguous: false }), recorded);
    expect(rest.stats.transactions).toBe(55);
    expect(grpc.stats.transactions).toBe(55);
    expect(rest.fingerprint['marketplace_activities']).not.toMatch(/^0:/);
    expect(grpc.fingerprint).toEqual(rest.fingerprint);
  });
});
