import { DEFAULTS } from '@mdq/config';
import type { Db } from '@mdq/db';
import { DEFAULT_PREFIX } from '@mdq/jobs';
import { stderrLogger, type WorkerLogger } from './logger';
import type { UriCacheOptions } from './uri/resolve-collection-uri';

export interface StartWorkerOptions {
  db: Db;
  /** BullMQ on this Redis; null runs the same processors in this process on the same schedules. */
  redisUrl: string | null;
  /** BullMQ key prefix (tests use a unique one; a Redis cluster wants a hash tag like `{mdq}`). */
  prefix?: string;
  logger?: WorkerLogger;
  /** URI resolution: gateways (default: config defaults), TTLs, limits. */
  uri?: Partial<UriCacheOptions>;
  /** Upsert job schedulers / start the in-process clocks (default true). */
  schedules?: boolean;
  concurrency?: Partial<ResolvedWorkerOptions['concurrency']>;
  /** Delay before a collection-changed job runs, letting a few indexer batches coalesce. */
  collectionChangedDelayMs?: number;
  /** Ranking refresh requests in the same bucket share one run at the bucket's end. */
  rankingsRefreshBucketMs?: number;
  uriSweepBatch?: number;
  /** How long close() waits for in-flight jobs before releasing them. */
  shutdownGraceMs?: number;
}

export interface ResolvedWorkerOptions {
  prefix: string;
  schedules: boolean;
  concurrency: { collectionChanged: number; aggregates: number; uriCache: number };
  collectionChangedDelayMs: number;
  rankingsRefreshBucketMs: number;
  uriSweepBatch: number;
  shutdownGraceMs: number;
  uri: UriCacheOptions;
  logger: WorkerLogger;
}

export function resolveWorkerOptions(options: StartWorkerOptions): ResolvedWorkerOptions {
  return {
    prefix: options.prefix ?? DEFAULT_PREFIX,
    schedules: options.schedules ?? true,
    concurrency: { collectionChanged: 2, aggregates: 1, uriCache: 4, ...options.concurrency },
    collectionChangedDelayMs: options.collectionChangedDelayMs ?? 2_000,
    rankingsRefreshBucketMs: options.rankingsRefreshBucketMs ?? 10_000,
    uriSweepBatch: options.uriSweepBatch ?? 200,
    shutdownGraceMs: options.shutdownGraceMs ?? 30_000,
    uri: {
      ipfsGateways: [...DEFAULTS.ipfsGateways],
      arweaveGateway: DEFAULTS.arweaveGateway,
      ...options.uri,
    },
    logger: options.logger ?? stderrLogger,
  };
}
