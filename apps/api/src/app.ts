import sensible from '@fastify/sensible';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import websocket from '@fastify/websocket';
import { FEED_DEFAULTS, type OverloadConfig } from '@mdq/config';
import { closeDb, createDbLike, type Db, listenForReadVersions, poolIfAny } from '@mdq/db';
import { createIndexerGraphqlDb } from '@mdq/db/read';
import { type Logger, redactUrl } from '@mdq/log';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type pg from 'pg';
import { type FeedOptions, FeedService } from './feed/feed-service';
import { DEFAULT_INDEXER_LIMITS, type IndexerLimits } from './graphql/plan';
import { createApiKeyAuth, type InvalidKeyLimit, registerApiKeyAuth } from './plugins/auth';
import { createOriginPolicy } from './plugins/browser-origins';
import { registerCors } from './plugins/cors';
import { registerDocs } from './plugins/docs';
import { registerErrorHandler } from './plugins/errors';
import { ReadStateSource, registerFreshnessHeaders } from './plugins/freshness';
import { createKeyCache, type KeyCacheOptions } from './plugins/key-cache';
import { createLoadGate } from './plugins/load-shedding';
import { registerMetrics } from './plugins/metrics';
import { type QueueDashboardOptions, registerQueueDashboard } from './plugins/queue-dashboard';
import { type RateLimitOptions, registerRateLimit } from './plugins/rate-limit';
import type { ResponseCacheBounds } from './plugins/response-cache';
import { registerResponseSchemaCheck } from './plugins/response-schemas';
import { registerThumbnailUrls } from './plugins/thumbnail-urls';
import type { CollectionUriResolver, MetadataCrawlRequester, RouteDeps } from './routes/deps';
import { eventRoutes } from './routes/events';
import { healthRoutes } from './routes/health';
import { areaRoutes } from './routes/index';
import { type MediaService, mediaRoutes } from './routes/media';
import { readyRoutes } from './routes/ready';

export interface AppOptions {
  /** Primary: API keys and the utility writes. */
  db: Db;
  /** Replica for reads (DATABASE_READ_URL); the primary when absent. */
  readDb?: Db;
  network: string;
  /** The worker's collection URI resolver; by default the route only queues the collection as pending. */
  resolveCollectionUri?: CollectionUriResolver;
  /** Queues a collection's metadata crawl on the worker; without it refresh-metadata waits for the sweep. */
  requestMetadataCrawl?: MetadataCrawlRequester;
  /** "Now" for lootbox statuses and time windows; the wall clock unless a test pins it. */
  clock?: () => Date;
  /** Requests per minute per key (default 1200; publishable keys 300 per visitor), counted in Redis when given. */
  rateLimit?: Partial<RateLimitOptions>;
  /**
   * MDQ_CORS_ORIGINS: browser origins allowed besides those of active publishable keys (exact or
   * `https://*.domain`, as parsed by @mdq/config).
   */
  corsOrigins?: readonly string[];
  /** Where the API logs (`@mdq/log`); no logging when absent. */
  logger?: Logger;
  /** `/ready` answers 503 past this lag behind the chain (default 120 s). */
  readyMaxLagSeconds?: number;
  /** The bull-board dashboard at /admin/queues; absent without Redis or an admin key. */
  queueDashboard?: QueueDashboardOptions;
  /** Rows a key may export per UTC day (default 10,000,000). */
  exportRowsPerDay?: number;
  /** zlib level and chunk size of gzipped exports (default: the route's, chosen by measurement). */
  exportGzip?: RouteDeps['exportGzip'];
  /** Thumbnails (apps/worker createMediaRenderer); /media answers 503 without it. */
  media?: MediaService;
  /** The API's public address for absolute thumbnail URLs; each request's Host when absent. */
  publicUrl?: string;
  /** The API key cache (revocations heard on `listenUrl`, the primary's URL). */
  apiKeys?: KeyCacheOptions & { invalid?: InvalidKeyLimit };
  /** Version-keyed response cache bounds per process (bodies, 0 turning it off, and MiB of them). */
  cache?: ResponseCacheBounds;
  /**
   * Learn of new write counters by LISTEN on `listenUrl` (the primary, which `readDb` must be) and
   * read them once per announced change rather than per request; a reading is trusted at most
   * `maxStaleMs` (plugins/freshness.ts, ReadStateSource). Absent: read per request.
   */
  pushedReadState?: { listenUrl: string; maxStaleMs: number };
  /** Live feed (SSE / WebSocket) settings; unset ones take the configuration's defaults. */
  feed?: Partial<FeedOptions>;
  /** Caps of `/v1/graphql` (row cap, depth, cost, statement timeout, connections) over their defaults. */
  graphqlLimits?: Partial<IndexerLimits>;
  /** Load shedding (503 + retry-after past its limits); none when absent. startApi passes the configuration's. */
  overload?: Omit<OverloadConfig, 'statementTimeoutMs'>;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const readDb = options.readDb ?? options.db;
  // The Indexer GraphQL runs on connections of its own to the read database (createIndexerGraphqlDb
  // says how they are set); a Db not made by createDb (a test's recording wrapper) serves it as is.
  const graphqlLimits = { ...DEFAULT_INDEXER_LIMITS, ...options.graphqlLimits };
  const graphqlDb = createIndexerGraphqlDb(readDb, graphqlLimits) ?? readDb;
  // Load shedding is the server's door: refused requests never reach Fastify.
  const gate = options.overload
    ? createLoadGate({ ...options.overload, pools: poolsOf(options.db, readDb, graphqlDb) })
    : undefined;
  const app = Fastify({
    ...(gate ? { serverFactory: gate.serverFactory } : {}),
    ...apiLogging(options.logger),
    // Ajv defaults that the spec's parameters rely on: query strings coerced to their types,
    // defaults filled in, unknown parameters ignored rather than rejected.
    ajv: {
      customOptions: { coerceTypes: true, useDefaults: true, removeAdditional: false, allErrors: false },
    },
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Before any route: every response schema is checked as it is registered.
  registerResponseSchemaCheck(app);

  const now = options.clock ?? (() => new Date());
  // The replica's checkpoint, not the primary's: the headers and the response cache describe the
  // data the answers come from. One source per process serves both.
  const signal = options.pushedReadState
    ? listenForReadVersions(options.pushedReadState.listenUrl)
    : undefined;
  if (signal) app.addHook('onClose', () => signal.close());
  // The read state's own connection: its readings go one at a time (ReadStateSource), and every
  // cached request about a collection, token or wallet the last reading did not resolve waits for
  // one. In the pages' pool a reading queued behind the misses (163 readings/s, each ~6 ms under
  // the live bench, as long as a miss).
  const readStateDb =
    createDbLike(readDb, { applicationName: 'mdq-api-read-state', max: 1, jit: false }) ?? readDb;
  if (readStateDb !== readDb) app.addHook('onClose', () => closeDb(readStateDb));
  const readState = new ReadStateSource(readStateDb, undefined, signal, options.pushedReadState?.maxStaleMs);
  // The process's read state, for tests' and operators' view of whether it is pushed (`pushing`).
  app.decorate('readState', readState);
  if (graphqlDb !== readDb) app.addHook('onClose', () => closeDb(graphqlDb));

  await app.register(sensible);
  registerErrorHandler(app);
  if (gate) await gate.register(app);
  registerMetrics(app, { freshness: readState, now: () => new Date() });
  // One rule for which pages may call the API: CORS answers by it, keyed routes refuse by it.
  const origins = createOriginPolicy(options.db, { configured: options.corsOrigins ?? [] });
  await registerCors(app, origins);
  await registerRateLimit(app, { perMinute: 1200, publishablePerMinute: 300, ...options.rateLimit });
  await registerDocs(app, options.network);
  if (options.queueDashboard) await registerQueueDashboard(app, options.queueDashboard);
  healthRoutes(app, { network: options.network });
  readyRoutes(app, { db: readDb, maxLagSeconds: options.readyMaxLagSeconds ?? 120, now: () => new Date() });

  // One key cache for both path prefixes: a revocation must reach every form of every route.
  const keys = createKeyCache(options.db, options.apiKeys);
  app.addHook('onClose', () => keys.close());
  const authenticate = createApiKeyAuth(keys, origins, options.apiKeys?.invalid);
  // One feed poller per process, shared by both path forms and every stream.
  await app.register(websocket);
  const feed = new FeedService(readDb, { ...FEED_DEFAULTS, ...options.feed }, (error) =>
    app.log.warn({ err: error }, 'live feed poll failed'),
  );
  app.addHook('preClose', () => feed.close());
  // The process's feed, for operators' and tests' view of its streams (sessionStats).
  app.decorate('liveFeed', feed);
  for (const prefix of [`/${options.network}/api`, `/${options.network}`]) {
    await app.register(async (scope) => mediaRoutes(scope, options.media), { prefix });
    await app.register(
      async (scope) => {
        registerApiKeyAuth(scope, authenticate);
        registerFreshnessHeaders(scope, readState);
        registerThumbnailUrls(scope, {
          network: options.network,
          publicUrl: options.publicUrl,
          enabled: options.media !== undefined,
        });
        const deps = {
          db: options.db,
          readDb,
          readState,
          resolveCollectionUri: options.resolveCollectionUri,
          requestMetadataCrawl: options.requestMetadataCrawl,
          now,
          exportRowsPerDay: options.exportRowsPerDay ?? 10_000_000,
          exportGzip: options.exportGzip,
          ...(options.cache !== undefined ? { cache: options.cache } : {}),
          graphql: { db: graphqlDb, limits: graphqlLimits },
        };
        await areaRoutes(scope, deps);
        await eventRoutes(scope, { ...deps, feed });
      },
      { prefix },
    );
  }
  return app;
}

/**
 * The API's logging: the given logger with Fastify's request fields kept short (a request is its
 * method, URL and remote address, never its headers: they carry the API key; and the URL without
 * the value of `?apiKey=`, which the event streams accept).
 *
 * Fastify writes each request at `info` and gives every request a child logger carrying its id.
 * At a level that filters those lines the child would name a request no line shows, and making
 * one per request was the API's cost of logging nothing: the requests share the API's logger then,
 * and an error line they write still says what failed.
 */
function apiLogging(logger: Logger | undefined): Pick<
  FastifyServerOptions,
  'logger' | 'logController' | 'childLoggerFactory'
> & {
  loggerInstance?: FastifyBaseLogger;
} {
  if (!logger || logger.level === 'silent') return { logger: false };
  const instance = logger.child(
    {},
    {
      serializers: {
        req: (req: { method?: string; url?: string; ip?: string }) => ({
          method: req.method,
          url: req.url === undefined ? undefined : redactUrl(req.url),
          remoteAddress: req.ip,
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
    },
  );
  if (instance.isLevelEnabled('info')) return { loggerInstance: instance };
  return {
    loggerInstance: instance,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: (parent: FastifyBaseLogger) => parent,
  };
}

/** The pg pools behind the API's Dbs (one when reads go to the primary): their queues are the database wait. */
function poolsOf(...dbs: Db[]): pg.Pool[] {
  return [...new Set(dbs.map(poolIfAny).filter((pool) => pool !== undefined))];
}
