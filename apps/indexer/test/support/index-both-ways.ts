import { DEFAULT_LOOTBOX_ADDRESS, DEFAULT_MARKETPLACE_ADDRESS } from '@mdq/chain';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import type { DevnetServer } from '@mdq/devnet';
import { noopNotifier } from '@mdq/jobs';
import { afterAll } from 'vitest';
import {
  type ChainSource,
  createDecoder,
  type DecoderOptions,
  fullnodeSource,
  grpcSource,
  type IndexerStats,
  runIndexer,
  streamFilterFor,
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
  const decode = createDecoder(decoderOptions(decodeFor));
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

/** The decoder's addresses for a devnet's chain (its own marketplace and lootbox). */
function decoderOptions(devnet: DevnetServer): DecoderOptions {
  const config = devnet.chain?.config;
  return {
    marketplaceAddress: config?.marketplaceAddress ?? DEFAULT_MARKETPLACE_ADDRESS,
    lootboxAddress: config?.lootboxAddress ?? DEFAULT_LOOTBOX_ADDRESS,
  };
}

/**
 * The devnet's Transaction Stream; `filteredFor`: send the filter for what that devnet's decoder
 * reads. `grpcUrl`/`tipUrl` point at another server with the same chain.
 */
export const viaGrpc = (
  devnet: DevnetServer,
  options: { contiguous?: boolean; filteredFor?: DevnetServer; grpcUrl?: string; tipUrl?: string } = {},
) => {
  const { filteredFor, grpcUrl, tipUrl, ...rest } = options;
  return grpcSource({
    url: grpcUrl ?? (devnet.grpcUrl as string),
    tip: fullnodeSource(tipUrl ?? devnet.url).tip,
    batchSize: 40,
    idleMs: 300,
    backoffMs: 20,
    maxBackoffMs: 200,
    ...(filteredFor ? { transactionFilter: streamFilterFor(decoderOptions(filteredFor)) } : {}),
    ...rest,
  });
};
