import { DEFAULTS, RETENTION_DEFAULTS, type RetentionConfig } from '@mdq/config';
import type { Db } from '@mdq/db';
import { DEFAULT_COLLECTION_CHANGED_WINDOW_MS, DEFAULT_PREFIX, QUEUE_NAMES, type QueueName } from '@mdq/jobs';
import type { AnyJob, CoalesceWindows } from './jobs/define-job';
import { defaultWorkerLogger, type WorkerLogger } from './logger';
import type { MediaRenderer } from './media/media-renderer';
import { type MetadataCrawlOptions, metadataGate } from './metadata/crawl-collection';
import type { RarityPacer } from './tasks/rarity-pacer';
import type { UriCacheOptions } from './uri/resolve-collection-uri';
import type { GatewayConfig } from './uri/uri-schemes';
import type { StartWebhookDeliveryOptions } from './webhooks/webhook-delivery';

export interface StartWorkerOptions {
  db: Db;
  /** BullMQ on this Redis; null runs the same processors in this process on the same schedules. */
  redisUrl: string | null;
  /** BullMQ key prefix (tests use a unique one; a Redis cluster wants a hash tag like `{mdq}`). */
  prefix?: string;
  logger?: WorkerLogger;
  /** URI resolution: gateways (default: config defaults), TTLs, limits. */
  uri?: Partial<UriCacheOptions>;
  /** The metadata crawler: limits, refresh age, per-host politeness (gateways come from `uri`). */
  metadata?: Omit<MetadataCrawlOptions, keyof GatewayConfig | 'gate' | 'recomputeRarity'>;
  /**
   * The pace of the worker's OpenRarity recomputes (default: a tenth of the time per collection, a
   * quarter overall; tasks/rarity-pacer.ts). A test hands one that already holds a collection back.
   */
  rarityPacer?: RarityPacer;
  /** Upsert job schedulers / start the in-process clocks (default true). */
  schedules?: boolean;
  /** Jobs run at once per queue in BullMQ (in-process: one at a time per queue). */
  concurrency?: Partial<Record<QueueName, number>>;
  /**
   * The collection-changed window: a collection is recomputed at most this long after its first
   * unprocessed change (plus the rest of a recompute of it already running); every change inside
   * the window joins that one recompute. Must match the producer's window when the indexer runs
   * elsewhere (both default to DEFAULT_COLLECTION_CHANGED_WINDOW_MS, 2 s).
   */
  collectionChangedDelayMs?: number;
  /** How often the collection-changed backlog is logged while anything waits (default 30 s). */
  changeLagLogMs?: number;
  /** The backlog line becomes a warning past this age of the oldest change (default 10 windows, ≥ 30 s). */
  changeLagWarnMs?: number;
  /** How often the BullMQ runtime checks that every job scheduler exists (default 60 s). */
  scheduleCheckMs?: number;
  /**
   * The rankings-refresh window: requests share one run at most this long after the first one not
   * yet answered (default 2 s: a sale reaches trending in ~1–2 s; on a busy chain the rankings then
   * run every 2 s, ~1 s of Postgres time each on the 1M devnet chain: docs/PERFORMANCE.md).
   */
  rankingsRefreshWindowMs?: number;
  /**
   * The instant the aggregate jobs (rankings, rarity, snapshots) compute at; default the wall clock.
   * Benchmarks only: a generated chain whose last block is not now (like the API's MDQ_CLOCK_AT).
   */
  clock?: () => Date;
  uriSweepBatch?: number;
  /** Retention of the time-grown tables (default: the configuration's defaults). */
  retention?: Partial<RetentionConfig>;
  /** Pre-renders ranked collections' thumbnails into this renderer's cache (media-prerender). */
  media?: MediaRenderer;
  /** How long close() waits for in-flight jobs before releasing them. */
  shutdownGraceMs?: number;
  /** The jobs to run (default: the registry, `JOBS`); tests wrap them to watch each run. */
  jobs?: readonly AnyJob[];
  /** Webhook delivery settings (BullMQ mode only). */
  webhooks?: Partial<Omit<StartWebhookDeliveryOptions, 'db' | 'redisUrl' | 'prefix'>>;
}

export interface ResolvedWorkerOptions extends CoalesceWindows {
  prefix: string;
  schedules: boolean;
  concurrency: Partial<Record<QueueName, number>>;
  changeLagLogMs: number;
  changeLagWarnMs: number;
  scheduleCheckMs: number;
  clock: () => Date;
  uriSweepBatch: number;
  retention: RetentionConfig;
  shutdownGraceMs: number;
  uri: UriCacheOptions;
  metadata: MetadataCrawlOptions;
  logger: WorkerLogger;
}

/** The coalescing windows when no option shortens them (a process that only adds jobs uses these). */
export const DEFAULT_COALESCE_WINDOWS: CoalesceWindows = {
  collectionChangedDelayMs: DEFAULT_COLLECTION_CHANGED_WINDOW_MS,
  rankingsRefreshWindowMs: 2_000,
};

export function resolveWorkerOptions(options: StartWorkerOptions): ResolvedWorkerOptions {
  const collectionChangedDelayMs =
    options.collectionChangedDelayMs ?? DEFAULT_COALESCE_WINDOWS.collectionChangedDelayMs;
  const uri: UriCacheOptions = {
    ipfsGateways: [...DEFAULTS.ipfsGateways],
    arweaveGateway: DEFAULTS.arweaveGateway,
    ...options.uri,
  };
  return {
    prefix: options.prefix ?? DEFAULT_PREFIX,
    schedules: options.schedules ?? true,
    concurrency: {
      [QUEUE_NAMES.collectionChanged]: 2,
      [QUEUE_NAMES.aggregates]: 1,
      [QUEUE_NAMES.uriCache]: 4,
      ...options.concurrency,
    },
    collectionChangedDelayMs,
    changeLagLogMs: options.changeLagLogMs ?? 30_000,
    changeLagWarnMs: options.changeLagWarnMs ?? Math.max(30_000, 10 * collectionChangedDelayMs),
    scheduleCheckMs: options.scheduleCheckMs ?? 60_000,
    rankingsRefreshWindowMs:
      options.rankingsRefreshWindowMs ?? DEFAULT_COALESCE_WINDOWS.rankingsRefreshWindowMs,
    clock: options.clock ?? (() => new Date()),
    uriSweepBatch: options.uriSweepBatch ?? 200,
    retention: { ...RETENTION_DEFAULTS, ...options.retention },
    shutdownGraceMs: options.shutdownGraceMs ?? 30_000,
    uri,
    metadata: metadataOptions(uri, options.metadata),
    logger: options.logger ?? defaultWorkerLogger(),
  };
}

/** The crawler's options: the URI cache's gateways and trusted origins, its own limits, one gate. */
function metadataOptions(uri: UriCacheOptions, own: StartWorkerOptions['metadata']): MetadataCrawlOptions {
  const gateways: GatewayConfig = {
    ipfsGateways: uri.ipfsGateways,
    arweaveGateway: uri.arweaveGateway,
    ...(uri.trustedOrigins ? { trustedOrigins: uri.trustedOrigins } : {}),
  };
  const options = { ...gateways, ...own };
  return { ...options, gate: metadataGate(options) };
}
