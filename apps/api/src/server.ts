import type { Config } from '@mdq/config';
import { createDb, type Db, ensureApiKey } from '@mdq/db';
import { stderrRedisSink } from '@mdq/jobs';
import { processLogger } from '@mdq/log';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from './app';
import type { CollectionUriResolver, MetadataCrawlRequester } from './routes/deps';
import type { MediaService } from './routes/media';

export interface RunningApi {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export interface StartApiOptions {
  db?: Db;
  /** The worker's resolver (apps/worker resolveCollectionUri bound to a db and options). */
  resolveCollectionUri?: CollectionUriResolver;
  /** The worker's metadata crawl queue (refresh-metadata); without it the worker's sweep picks requests up. */
  requestMetadataCrawl?: MetadataCrawlRequester;
  /** Redis for rate-limit counters shared by replicas; per-process counters when null. */
  redisUrl?: string | null;
  /** BullMQ key prefix, for the queue dashboard. */
  queuePrefix?: string;
  /** Thumbnails (apps/worker createMediaRenderer). */
  media?: MediaService;
}

/** Starts the HTTP API on config.host:config.port against an existing database. */
export async function startApi(
  config: Config,
  databaseUrl: string,
  options: StartApiOptions = {},
): Promise<RunningApi> {
  // Every statement of a request is bounded (MDQ_API_STATEMENT_TIMEOUT_MS); exports lift it for
  // their own transaction. No JIT: a request's statement is over before compiling would pay.
  const statementTimeoutMs = config.overload.statementTimeoutMs;
  const db =
    options.db ??
    createDb(databaseUrl, {
      applicationName: 'mdq-api',
      max: config.apiPoolSize,
      statementTimeoutMs,
      jit: false,
    });
  const readDb = config.databaseReadUrl
    ? createDb(config.databaseReadUrl, {
        applicationName: 'mdq-api-read',
        max: config.apiPoolSize,
        statementTimeoutMs,
        jit: false,
      })
    : undefined;
  if (config.apiKey) await ensureApiKey(db, config.apiKey, 'MDQ_API_KEY');
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : null;
  // The rate limiter fails fast while Redis is down; its failures are one line each, with a count.
  redis?.on('error', stderrRedisSink);
  const app = await buildApp({
    rateLimit: {
      perMinute: config.rateLimitPerMinute,
      publishablePerMinute: config.publishableRateLimitPerMinute,
      ...(redis ? { redis } : {}),
    },
    corsOrigins: config.corsOrigins,
    db,
    ...(readDb ? { readDb } : {}),
    network: config.network,
    exportRowsPerDay: config.exportRowsPerDay,
    ...(options.media ? { media: options.media } : {}),
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    apiKeys: { listenUrl: databaseUrl },
    cache: { entries: config.apiCacheEntries, megabytes: config.apiCacheMegabytes },
    // Pushed counters need the reads on the primary, which announces its writes (a standby lags them).
    ...(config.apiMaxStaleMs > 0 && !readDb
      ? { pushedReadState: { listenUrl: databaseUrl, maxStaleMs: config.apiMaxStaleMs } }
      : {}),
    ...(options.resolveCollectionUri ? { resolveCollectionUri: options.resolveCollectionUri } : {}),
    ...(options.requestMetadataCrawl ? { requestMetadataCrawl: options.requestMetadataCrawl } : {}),
    // The process's logger (MDQ_LOG_LEVEL) as the `api` component, at this API's own level.
    logger: processLogger().child({ component: 'api' }, { level: config.logLevel }),
    readyMaxLagSeconds: config.readyMaxLagSeconds,
    feed: config.feed,
    overload: config.overload,
    ...(config.clockAt ? { clock: pinnedClock(config.clockAt) } : {}),
    ...(options.redisUrl && config.adminKey
      ? {
          queueDashboard: {
            redisUrl: options.redisUrl,
            prefix: options.queuePrefix ?? config.queuePrefix,
            adminKey: config.adminKey,
          },
        }
      : {}),
  });
  const address = await app.listen({ host: config.host, port: config.port });
  return {
    app,
    url: address,
    async close() {
      await app.close();
      redis?.disconnect();
      if (readDb) await readDb.destroy();
      if (!options.db) await db.destroy();
    },
  };
}

/** MDQ_CLOCK_AT: a clock that stays at one moment (a fresh Date each call: callers may mutate it). */
function pinnedClock(at: Date): () => Date {
  const ms = at.getTime();
  return () => new Date(ms);
}
