import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type DevnetFacts, type DevnetServer, type Preset, startDevnetServer } from '@mdq/devnet';
import { noopNotifier } from '@mdq/jobs';
import { createDecoder } from './decoder';
import { type IndexerStats, runIndexer } from './run-indexer';
import { fullnodeSource } from './source';

export interface IndexedDatabase extends TestDatabase {
  devnet: DevnetServer;
  /** The devnet generator's own account of the chain: the independent truth tests compare with. */
  facts: DevnetFacts;
  stats: IndexerStats;
  close(): Promise<void>;
}

export interface IndexedDatabaseOptions {
  seed?: number;
  preset?: Preset;
  transactionsCount?: number;
  /** Chain ends at this time (ms); default: the devnet's fixed epoch. */
  endTimeMs?: number;
  batchSize?: number;
  /** Index from this version on, as MDQ_START_VERSION does (history before it is never read). */
  startVersion?: number;
}

/** The decoder for a devnet chain: its marketplace and lootbox addresses. */
export function devnetDecoder(devnet: DevnetServer) {
  const config = devnet.chain?.config;
  return createDecoder({
    marketplaceAddress: config?.marketplaceAddress ?? '',
    lootboxAddress: config?.lootboxAddress ?? '',
  });
}

/**
 * For tests of the API and the worker: a devnet chain served over HTTP, ingested by the real
 * indexer through @aptos-labs/ts-sdk into a fresh database. close() stops the devnet and drops
 * the database.
 */
export async function createIndexedDatabase(options: IndexedDatabaseOptions = {}): Promise<IndexedDatabase> {
  const devnet = await startDevnetServer({
    port: 0,
    seed: options.seed ?? 7,
    preset: options.preset ?? 'tiny',
    ...(options.transactionsCount ? { transactionsCount: options.transactionsCount } : {}),
    ...(options.endTimeMs ? { endTime: options.endTimeMs } : {}),
    blockIntervalMs: 0,
  });
  const test = await createTestDatabase();
  try {
    const config = devnet.chain?.config;
    const decode = createDecoder({
      marketplaceAddress: config?.marketplaceAddress ?? '',
      lootboxAddress: config?.lootboxAddress ?? '',
    });
    const stats = await runIndexer({
      db: test.db,
      source: fullnodeSource(devnet.url),
      decode,
      notifier: noopNotifier,
      batchSize: options.batchSize ?? 500,
      untilCaughtUp: true,
      ...(options.startVersion === undefined ? {} : { startVersion: options.startVersion }),
    });
    const facts = devnet.facts();
    if (!facts) throw new Error('the devnet served no facts');
    return {
      ...test,
      devnet,
      facts,
      stats,
      async close() {
        await devnet.close();
        await test.drop();
      },
    };
  } catch (error) {
    await devnet.close();
    await test.drop();
    throw error;
  }
}
