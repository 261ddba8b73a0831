import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { OverloadConfig } from '@mdq/config';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { body } from './errors';

/** Routes that answer under any load: liveness for the orchestrator, metrics for the operator. */
const NEVER_SHED = new Set(['/health', '/metrics']);

// How often event-loop delay and heap are sampled: a pressure that starts is seen within this.
const SAMPLE_INTERVAL_MS = 250;

export interface LoadSheddingOptions extends Omit<OverloadConfig, 'statementTimeoutMs'> {
  /** The pools whose waiting queries count (the read pool, and the primary when it is another). */
  pools: readonly pg.Pool[];
}

/**
 * Refuses a request at once, before auth (a key lookup) or a database connection, when the process
 * is past a limit: mean event-loop delay or heap (sampled by @fastify/under-pressure), or queries
 * already waiting for a connection of the API's pools (read at each request: the pool's queue is
 * what a new request would join, and reading it costs nothing). Everything admitted has at most
 * `maxDbWaiting` queries ahead of it, so it finishes in bounded time; everything else is a 503
 * with `retry-after` in the error envelope, well before a client would time out.
 */
export async function registerLoadShedding(
  app: FastifyInstance,
  options: LoadSheddingOptions,
): Promise<void> {
  // Sent as text: the envelope, whatever a route's own 503 schema is (/ready's is its report).
  const refuse = (reply: FastifyReply, message: string) =>
    reply
      .status(503)
      .header('retry-after', String(options.retryAfterSeconds))
      .type('application/json; charset=utf-8')
      .send(
        JSON.stringify(
          body(503, 'SERVICE_UNAVAILABLE', `${message}; retry after ${options.retryAfterSeconds} s`),
        ),
      );
  const exempt = (request: FastifyRequest) => NEVER_SHED.has(request.routeOptions.url ?? '');

  const maxHeapBytes =
    options.maxHeapMb === undefined
      ? Math.floor(getHeapStatistics().heap_size_limit * 0.9)
      : options.maxHeapMb * 1024 * 1024;
  await app.register(underPressure, {
    sampleInterval: SAMPLE_INTERVAL_MS,
    maxEventLoopDelay: options.maxEventLoopDelayMs,
    maxHeapUsedBytes: maxHeapBytes,
    // The plugin's own 503 body is not the API's envelope, hence a handler for every refusal. It
    // lets the request go on either way; Fastify runs nothing further for a reply already sent.
    pressureHandler: (request, reply, type) => {
      if (exempt(request)) return;
      refuse(reply, type === 'heapUsedBytes' ? 'the API is short of memory' : 'the API is overloaded');
    },
  });

  // Every 503 says when to come back: the database outage and statement-timeout answers of the
  // error handler as well as the refusals here.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 503 && !reply.hasHeader('retry-after')) {
      reply.header('retry-after', String(options.retryAfterSeconds));
    }
    return payload;
  });

  if (options.maxDbWaiting > 0) {
    app.addHook('onRequest', async (request, reply) => {
      if (exempt(request)) return;
      const waiting = options.pools.reduce((sum, pool) => sum + pool.waitingCount, 0);
      if (waiting >= options.maxDbWaiting) return refuse(reply, 'the database is busy');
    });
  }
}
