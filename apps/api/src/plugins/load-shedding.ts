import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { OverloadConfig } from '@mdq/config';
import { createFailureLog } from '@mdq/log';
import { apiConcurrencyLimit, apiInFlight, apiShed } from '@mdq/telemetry';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type pg from 'pg';
import { ConcurrencyLimit } from './concurrency-limit';
import { body } from './errors';
import { watchPoolQueue } from './pool-queue';

/** Paths that answer under any load: liveness for the orchestrator, metrics for the operator. */
const NEVER_SHED = new Set(['/health', '/metrics']);

// How often event-loop delay and heap are sampled: a pressure that starts is seen within this.
const SAMPLE_INTERVAL_MS = 250;

export interface LoadSheddingOptions extends Omit<OverloadConfig, 'statementTimeoutMs'> {
  /** The pools whose waiting queries count (the read pool, and the primary when it is another). */
  pools: readonly pg.Pool[];
}

type Signal = 'concurrency' | 'database' | 'event_loop' | 'heap';

const MESSAGES: Record<Signal, string> = {
  concurrency: 'the API is overloaded',
  database: 'the database is busy',
  event_loop: 'the API is overloaded',
  heap: 'the API is short of memory',
};

/** Fastify's `serverFactory`: the HTTP server, given Fastify's request handler. */
type ServerFactory = NonNullable<FastifyServerOptions['serverFactory']>;

/** The door of the API under overload: built before the app (its server), armed once the app exists. */
export interface LoadGate {
  serverFactory: ServerFactory;
  /** Samples event-loop delay and heap on the app, and sets the 503s' `retry-after`. */
  register(app: FastifyInstance): Promise<void>;
}

/**
 * Refuses a request at the door, before Fastify routes it, logs it, authenticates it or gives it
 * a database connection, when the process is past a limit: the oldest query waiting for a
 * connection has waited `maxDbWaitMs` (or `maxDbWaiting` queries wait), the sampled mean
 * event-loop delay or heap is past its limit, or the requests in flight fill the concurrency
 * limit that keeps the fastest answers under `targetLatencyMs` (concurrency-limit.ts). A refusal
 * costs the server a few microseconds (a prepared 503 in the error envelope with `retry-after`),
 * so a crowd of clients retrying at once cannot take the CPU the admitted requests need, which a
 * refusal that ran Fastify's hooks and wrote two log lines did (docs/RELIABILITY.md, "Overload"). Refusals are counted in
 * `mdq_api_shed_total{signal}` and logged as one line per signal per 10 s with their number.
 *
 * Admitting by the queue's age, not its length, bounds what an admitted request waits whatever
 * its statements cost. Only real HTTP goes through the gate: `app.inject` calls Fastify directly.
 */
export function createLoadGate(options: LoadSheddingOptions): LoadGate {
  // Timing every connect costs each query a little: only when the age signal is on.
  const queue = options.maxDbWaitMs > 0 ? watchPoolQueue(options.pools) : undefined;
  const maxHeapBytes =
    options.maxHeapMb === undefined
      ? Math.floor(getHeapStatistics().heap_size_limit * 0.9)
      : options.maxHeapMb * 1024 * 1024;
  let sampled: () => { eventLoopDelay: number; heapUsed: number } = () => ({
    eventLoopDelay: 0,
    heapUsed: 0,
  });
  let log: FastifyInstance['log'] | undefined;
  const repeats = createFailureLog();
  const limit = options.targetLatencyMs > 0 ? new ConcurrencyLimit(options.targetLatencyMs) : undefined;
  if (limit) apiConcurrencyLimit.set(limit.current.limit);

  const waiting = () => options.pools.reduce((sum, pool) => sum + pool.waitingCount, 0);
  const signal = (): Signal | null => {
    if (queue && queue.oldestWaitMs() >= options.maxDbWaitMs) return 'database';
    if (options.maxDbWaiting > 0 && waiting() >= options.maxDbWaiting) return 'database';
    const { eventLoopDelay, heapUsed } = sampled();
    if (options.maxEventLoopDelayMs > 0 && eventLoopDelay > options.maxEventLoopDelayMs) return 'event_loop';
    if (options.maxHeapMb !== 0 && heapUsed > maxHeapBytes) return 'heap';
    return null;
  };

  // One prepared answer per signal: the envelope every route's errors use, whatever a route's own
  // 503 schema is (/ready's is its report).
  const answers = Object.fromEntries(
    (Object.keys(MESSAGES) as Signal[]).map((s) => [
      s,
      Buffer.from(
        JSON.stringify(
          body(503, 'SERVICE_UNAVAILABLE', `${MESSAGES[s]}; retry after ${options.retryAfterSeconds} s`),
        ),
      ),
    ]),
  ) as Record<Signal, Buffer>;

  const refuse = (request: IncomingMessage, response: ServerResponse, s: Signal) => {
    apiShed.inc({ signal: s });
    repeats.report(s, ({ count }) =>
      log?.warn({ signal: s, refused: count }, `shedding load: ${MESSAGES[s]}`),
    );
    // A refused request's body (a GraphQL POST) is read and dropped, so the connection stays usable.
    request.resume();
    response.writeHead(503, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': answers[s].length,
      'retry-after': String(options.retryAfterSeconds),
      'cache-control': 'no-store',
      // A page's script may read the refusal and its retry-after: it carries no data.
      ...(request.headers.origin
        ? { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'retry-after' }
        : {}),
    });
    response.end(answers[s]);
  };

  const pathOf = (request: IncomingMessage) => {
    const url = request.url ?? '/';
    const end = url.indexOf('?');
    const path = end === -1 ? url : url.slice(0, end);
    return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  };
  // Preflights touch no database, and a refused one would read as a CORS failure in the page.
  const exempt = (request: IncomingMessage, path: string) =>
    request.method === 'OPTIONS' || NEVER_SHED.has(path);
  // A live feed or an export is open for as long as its client reads: it is not work in flight
  // that an answer ends, so it takes no place in the concurrency limit (the other signals apply).
  const streams = (path: string) => path.endsWith('/events/stream') || path.includes('/export/');

  return {
    serverFactory: (handler, serverOptions) => {
      const server: Server = createServer((request, response) => {
        const path = pathOf(request);
        if (exempt(request, path)) return handler(request, response);
        const s = signal();
        if (s) return refuse(request, response, s);
        if (limit && !streams(path)) {
          const admitted = performance.now();
          if (!limit.tryAcquire(admitted)) return refuse(request, response, 'concurrency');
          apiInFlight.inc();
          response.once('close', () => {
            const now = performance.now();
            const before = limit.current.limit;
            limit.release(now - admitted, now);
            apiInFlight.dec();
            if (limit.current.limit !== before) apiConcurrencyLimit.set(limit.current.limit);
          });
        }
        handler(request, response);
      });
      // What Fastify sets on a server it creates itself (its options, with its defaults filled in).
      const timeouts = serverOptions as {
        keepAliveTimeout?: number;
        requestTimeout?: number;
        connectionTimeout?: number;
      };
      server.keepAliveTimeout = timeouts.keepAliveTimeout ?? 72_000;
      server.requestTimeout = timeouts.requestTimeout ?? 0;
      server.setTimeout(timeouts.connectionTimeout ?? 0);
      return server;
    },
    async register(app) {
      log = app.log;
      // @fastify/under-pressure samples event-loop delay and heap; without limits of its own it
      // adds no hook, and the gate reads its samples.
      await app.register(underPressure, { sampleInterval: SAMPLE_INTERVAL_MS });
      sampled = () => app.memoryUsage();
      app.addHook('onClose', async () => repeats.close());
      // Every 503 says when to come back: the database outage and statement-timeout answers of
      // the error handler as well as the refusals at the door.
      app.addHook('onSend', async (_request, reply, payload) => {
        if (reply.statusCode === 503 && !reply.hasHeader('retry-after')) {
          reply.header('retry-after', String(options.retryAfterSeconds));
        }
        return payload;
      });
    },
  };
}
