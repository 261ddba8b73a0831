import { DEFAULT_LOOTBOX_ADDRESS, DEFAULT_MARKETPLACE_ADDRESS } from '@mdq/chain';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import type { DevnetServer } from '@mdq/devnet';
import { noopNotifier } from '@mdq/jobs';
import { afterAll } from 'vitest';
import {
  type ChainSource,
  createDecoder,
  fullnodeSource,
  grpcSource,
  type IndexerStats,
  runIndexer,
} from '../../src/index';
import { stateFingerprint } from './db-hash';

const dbs: TestDatabase[] = [];
export const servers: DevnetServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  for (const db of dbs) await db.drop();
});

export async function index(
  source: ChainSource & { close?: () => void },
  decodeFor: DevnetServer,
  batchSize = 97,
): Promise<{ stats: IndexerStats; fingerprint: Record<string, string> }> {
  const test = await createTestDatabase();
  dbs.push(test);
  const config = decodeFor.chain?.config;
  const decode = createDecoder({
    marketplaceAddress: config?.marketplaceAddress ?? DEFAULT_MARKETPLACE_ADDRESS,
    lootboxAddress: config?.lootboxAddress ?? DEFAULT_LOOTBOX_ADDRESS,
  });
  try {
    const stats = await runIndexer({
      db: test.db,
      source,
      decode,
      notifier: noopNotifier,
      batchSize,
      untilCaughtUp: true,
    });
    return { stats, fingerprint: await stateFingerprint(test.db) };
  } finally {
    source.close?.();
  }
}

export const viaGrpc = (devnet: DevnetServer, options: { contiguous?: boolean } = {}) =>
  grpcSource({
    url: devnet.grpcUrl as string,
    tip: fullnodeSource(devnet.url).tip,
    batchSize: 40,
    idleMs: 300,
    backoffMs: 20,
    maxBackoffMs: 200,
    ...options,
  });
