import { availableParallelism } from 'node:os';
import { ConfigError } from './config-error';
import { DEFAULTS, NETWORKS, type Network } from './defaults';
import { type FeedConfig, loadFeedConfig } from './feed';
import { parseOrigin } from './origins';
import { loadOverloadConfig, type OverloadConfig } from './overload';
import { type Env, optional, readAddress, readEnum, readInt, readList, readUrl } from './read-env';
import { loadRetentionConfig, type RetentionConfig } from './retention';

/** Everything mdq reads from the environment, validated once at start. Nothing else reads process.env. */
export interface Config {
  /** Unset means "start the embedded Postgres" (mdq start) or a configuration error (other commands). */
  databaseUrl: string | undefined;
  databaseReadUrl: string | undefined;
  /** Unset means "try redis://127.0.0.1:6379, else run the worker's processors in-process". */
  redisUrl: string | undefined;
  network: Network;
  /** Unset on the local network means "start the embedded devnet". */
  fullnodeUrl: string | undefined;
  /** Sent as `authorization: Bearer <key>` on every fullnode REST call (the Aptos API gateway's key). */
  fullnodeApiKey: string | undefined;
  /** Aptos Transaction Stream (gRPC); when set the indexer reads transactions from it, not REST. */
  grpcUrl: string | undefined;
  grpcApiKey: string | undefined;
  /** First version the main follower reads when its checkpoint is empty (partial history). */
  startVersion: number | undefined;
  host: string;
  port: number;
  apiKey: string | undefined;
  marketplaceAddress: string;
  lootboxAddress: string;
  dataDir: string;
  /** As root: a folder the `postgres` OS user can reach, for the embedded Postgres (docs/DECISIONS.md). */
  sharedDir: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  devnetPort: number;
  indexerBatchSize: number;
  rateLimitPerMinute: number;
  /** Requests per minute of a publishable (browser) key without a limit of its own, per key and client IP. */
  publishableRateLimitPerMinute: number;
  /**
   * Browser origins allowed to call the API cross-origin (CORS, the feed's SSE and WebSocket), exact
   * or `https://*.domain`; the origins of active publishable keys are allowed besides these.
   */
  corsOrigins: string[];
  /** API processes sharing the port (node:cluster); 0 means one per CPU. */
  apiWorkers: number;
  /** Bodies the API's version-keyed response cache keeps per process; 0 turns it off. */
  apiCacheEntries: number;
  /** Bytes of bodies that cache keeps per process, in MiB (MDQ_API_CACHE_MB): the other bound. */
  apiCacheMegabytes: number;
  /**
   * How old the write counters a cached answer is keyed by may be when no change was announced
   * (LISTEN on the primary; the API then reads them once per change, not per request); 0 reads them
   * for every request. Without a read replica only: a standby replays a write after its announcement.
   */
  apiMaxStaleMs: number;
  /**
   * Connections of each API process's database pool (and of its read pool). More than the
   * database's cores can run at once only makes every statement slower: see docs/SCALING.md.
   */
  apiPoolSize: number;
  /** BullMQ key prefix (a Redis cluster wants a hash tag such as `{mdq}`). */
  queuePrefix: string;
  ipfsGateways: string[];
  arweaveGateway: string;
  /**
   * Origins (`http://host:port`) the metadata fetchers may reach although their address is private:
   * the SSRF guard's one explicit allowance (MDQ_TRUSTED_ORIGINS; `mdq start` adds its embedded
   * devnet). Empty by default.
   */
  trustedOrigins: string[];
  /** `/ready` answers 503 once the indexed data is further behind the chain than this. */
  readyMaxLagSeconds: number;
  /** Unlocks the queue dashboard at /admin/queues (x-admin-key or basic auth); unset: no dashboard. */
  adminKey: string | undefined;
  /** `mdq indexer` / `mdq worker` run alone serve /metrics here; unset: no metrics listener. */
  metricsPort: number | undefined;
  /** Rows a key may export per UTC day (bulk export). */
  exportRowsPerDay: number;
  /** Directory of the thumbnail cache; MDQ_DATA_DIR/media unless set. */
  mediaCacheDir: string;
  /** Size cap of the thumbnail cache in bytes (least recently used files go first). */
  mediaCacheBytes: number;
  /** Live feed streams and webhook deliveries. */
  feed: FeedConfig;
  /** The API's load shedding and statement timeout. */
  overload: OverloadConfig;
  /** How long the tables that grow with time keep their rows (the worker's retention job). */
  retention: RetentionConfig;
  /**
   * The API's address as clients reach it (behind a proxy: the proxy's), for the absolute
   * thumbnail URLs in responses; unset: taken from each request's Host.
   */
  publicUrl: string | undefined;
  /**
   * Benchmarks and tests only (MDQ_CLOCK_AT): the API answers as at this moment, for time windows
   * and lootbox statuses, so a recorded chain's windows hold its data; unset: the wall clock.
   */
  clockAt: Date | undefined;
}

export function loadConfig(env: Env = process.env): Config {
  const network = readEnum(env, 'APTOS_NETWORK', NETWORKS, 'local');
  return {
    databaseUrl: optional(env, 'DATABASE_URL', (v, n) => readUrl(v, n, ['postgres:', 'postgresql:'])),
    databaseReadUrl: optional(env, 'DATABASE_READ_URL', (v, n) =>
      readUrl(v, n, ['postgres:', 'postgresql:']),
    ),
    redisUrl: optional(env, 'REDIS_URL', (v, n) => readUrl(v, n, ['redis:', 'rediss:'])),
    network,
    fullnodeUrl:
      optional(env, 'APTOS_FULLNODE_URL', (v, n) => readUrl(v, n, ['http:', 'https:'])) ??
      DEFAULTS.fullnodeUrls[network],
    fullnodeApiKey: env['APTOS_FULLNODE_API_KEY']?.trim() || undefined,
    grpcUrl: optional(env, 'APTOS_GRPC_URL', (v, n) => readUrl(v, n, ['http:', 'https:'])),
    grpcApiKey: env['APTOS_GRPC_API_KEY']?.trim() || undefined,
    startVersion: optional(env, 'MDQ_START_VERSION', (v, n) => {
      const version = Number(v);
      if (!/^\d+$/.test(v) || !Number.isSafeInteger(version)) {
        throw new ConfigError(`${n} must be a non-negative integer version (got "${v}")`);
      }
      return version;
    }),
    host: env['HOST']?.trim() || DEFAULTS.host,
    port: readInt(env, 'PORT', DEFAULTS.port, 0, 65535),
    apiKey: optional(env, 'MDQ_API_KEY', (v, n) => {
      if (v.length < 16) throw new ConfigError(`${n} must be at least 16 characters`);
      return v;
    }),
    marketplaceAddress: readAddress(env, 'MARKETPLACE_ADDRESS', DEFAULTS.marketplaceAddress),
    lootboxAddress: readAddress(env, 'LOOTBOX_ADDRESS', DEFAULTS.lootboxAddress),
    dataDir: env['MDQ_DATA_DIR']?.trim() || DEFAULTS.dataDir,
    sharedDir: env['MDQ_SHARED_DIR']?.trim() || DEFAULTS.sharedDir,
    logLevel: readEnum(
      env,
      'MDQ_LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      'info',
    ),
    devnetPort: readInt(env, 'MDQ_DEVNET_PORT', DEFAULTS.devnetPort, 0, 65535),
    indexerBatchSize: readInt(env, 'MDQ_INDEXER_BATCH_SIZE', DEFAULTS.indexerBatchSize, 1, 10_000),
    rateLimitPerMinute: readInt(env, 'MDQ_RATE_LIMIT', DEFAULTS.rateLimitPerMinute, 1, 1_000_000),
    publishableRateLimitPerMinute: readInt(
      env,
      'MDQ_PUBLISHABLE_RATE_LIMIT',
      DEFAULTS.publishableRateLimitPerMinute,
      1,
      1_000_000,
    ),
    corsOrigins: readList(env, 'MDQ_CORS_ORIGINS', [], (v, n) => {
      const parsed = parseOrigin(v);
      if ('problem' in parsed) throw new ConfigError(`${n}: ${parsed.problem}`);
      return parsed.origin;
    }),
    apiWorkers: readInt(env, 'MDQ_API_WORKERS', 1, 0, 64),
    apiCacheEntries: readInt(env, 'MDQ_API_CACHE_ENTRIES', DEFAULTS.apiCacheEntries, 0, 1_000_000),
    apiCacheMegabytes: readInt(env, 'MDQ_API_CACHE_MB', DEFAULTS.apiCacheMegabytes, 1, 65_536),
    apiMaxStaleMs: readInt(env, 'MDQ_API_MAX_STALE_MS', 1_000, 0, 60_000),
    apiPoolSize: readInt(env, 'MDQ_API_POOL_SIZE', defaultApiPoolSize(), 1, 1_000),
    queuePrefix: env['MDQ_QUEUE_PREFIX']?.trim() || 'mdq',
    ipfsGateways: readList(env, 'MDQ_IPFS_GATEWAYS', DEFAULTS.ipfsGateways, (v, n) =>
      readUrl(v, n, ['http:', 'https:']),
    ),
    arweaveGateway:
      optional(env, 'MDQ_ARWEAVE_GATEWAY', (v, n) => readUrl(v, n, ['http:', 'https:'])) ??
      DEFAULTS.arweaveGateway,
    trustedOrigins: readList(env, 'MDQ_TRUSTED_ORIGINS', [], (v, n) => {
      const url = readUrl(v, n, ['http:', 'https:']);
      return new URL(url).origin;
    }),
    readyMaxLagSeconds: readInt(
      env,
      'MDQ_READY_MAX_LAG_SECONDS',
      DEFAULTS.readyMaxLagSeconds,
      1,
      365 * 24 * 3600,
    ),
    adminKey: optional(env, 'MDQ_ADMIN_KEY', (v, n) => {
      if (v.length < 16) throw new ConfigError(`${n} must be at least 16 characters`);
      return v;
    }),
    metricsPort: optional(env, 'MDQ_METRICS_PORT', (v, n) => readInt({ [n]: v }, n, 0, 0, 65535)),
    exportRowsPerDay: readInt(env, 'MDQ_EXPORT_ROWS_PER_DAY', DEFAULTS.exportRowsPerDay, 1, 1_000_000_000),
    mediaCacheDir:
      env['MDQ_MEDIA_CACHE_DIR']?.trim() || `${env['MDQ_DATA_DIR']?.trim() || DEFAULTS.dataDir}/media`,
    mediaCacheBytes: readInt(env, 'MDQ_MEDIA_CACHE_MB', DEFAULTS.mediaCacheMb, 1, 10_000_000) * 1024 * 1024,
    feed: loadFeedConfig(env),
    overload: loadOverloadConfig(env),
    retention: loadRetentionConfig(env),
    publicUrl: optional(env, 'MDQ_PUBLIC_URL', (v, n) =>
      readUrl(v, n, ['http:', 'https:']).replace(/\/+$/, ''),
    ),
    clockAt: optional(env, 'MDQ_CLOCK_AT', (v, n) => {
      const at = new Date(v);
      if (!/^\d{4}-\d{2}-\d{2}T/.test(v) || Number.isNaN(at.getTime())) {
        throw new ConfigError(`${n} must be an ISO 8601 date-time such as 2025-06-01T12:00:00Z (got "${v}")`);
      }
      return at;
    }),
  };
}

/**
 * The API's pool when MDQ_API_POOL_SIZE is unset: twice this machine's cores and two, at most 20
 * (Postgres's rule of thumb for the connections that keep its cores busy without making them take
 * turns). Statements past the cores only queue inside Postgres, where each waiting backend still
 * takes its share of the CPU: on two cores a pool of 20 let Postgres run 20 of the API's statements
 * at once beside the indexer's and worker's, the API process got too little of the CPU to run its
 * event loop, and the live bench at 100 connections was answered with 734–1,736 overload 503s, 0
 * and 39 in two runs with a pool of 6 (docs/PERFORMANCE.md). The machine's cores stand for the database's: the same
 * machine under `mdq start`; set MDQ_API_POOL_SIZE for a database server of another size.
 */
function defaultApiPoolSize(): number {
  return Math.min(20, 2 * availableParallelism() + 2);
}
