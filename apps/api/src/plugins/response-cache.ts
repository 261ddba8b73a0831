import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { ReadStateSource } from './freshness';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Cache the route's 200 bodies per URL under the read version (indexed checkpoint + the
     * data tables' write counter). Only for routes whose answer is a function of the stored
     * data alone; a route whose answer also moves with the clock sets `request.cacheUntil`.
     */
    readCache?: boolean;
  }
  interface FastifyRequest {
    /** Epoch ms after which this response is no longer true even at the same read version. */
    cacheUntil?: number;
    cacheHit?: boolean;
  }
}

interface Entry {
  version: string;
  body: string;
  etag: string;
  until: number;
}

export interface ResponseCacheOptions {
  /** The process's one read-state source, shared with the freshness headers. */
  source: ReadStateSource;
  /** Bodies kept (least recently used dropped first); 0 turns the cache off. */
  entries: number;
  /** The clock the routes use for `cacheUntil`. */
  now: () => Date;
}

/**
 * Version-keyed response cache for the read routes that opt in (`config.readCache`). A hit costs
 * the read-state query the freshness headers take anyway (fresh for these routes, one per
 * event-loop turn) instead of the route's statements and serialisation; a new indexed
 * version or any other committed write changes the version, so the next request recomputes. Weak ETags name
 * the body; `Cache-Control: private, no-cache` lets clients revalidate cheaply (304) without ever
 * reusing a stale body on their own.
 */
export function registerResponseCache(app: FastifyInstance, options: ResponseCacheOptions): void {
  if (options.entries <= 0) return;
  const cache = new LRUCache<string, Entry>({
    max: options.entries,
    // Bounded by bytes too: a few large pages must not hold the heap.
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (entry) => entry.body.length + 64,
  });

  /** Answers from the cache when it holds this URL at `version`; false when the route must run. */
  const answer = (request: FastifyRequest, reply: FastifyReply, version: string): boolean => {
    const entry = cache.get(request.url);
    if (!entry || entry.version !== version || options.now().getTime() >= entry.until) return false;
    request.cacheHit = true;
    reply.header('content-type', 'application/json; charset=utf-8');
    reply.header('etag', entry.etag);
    reply.send(entry.body);
    return true;
  };

  // Callback hooks: a hit is the API's cheapest answer, and an async hook costs a promise each.
  app.addHook('preHandler', (request, reply, done) => {
    if (!request.routeOptions.config.readCache) return done();
    // Taken by the freshness hook before validation; a scope without that hook reads its own.
    if (request.readState) {
      if (!answer(request, reply, request.readState.version)) done();
      return;
    }
    options.source.fresh().then((state) => {
      request.readState = state;
      if (!answer(request, reply, state.version)) done();
    }, done);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (
      !request.routeOptions.config.readCache ||
      request.cacheHit ||
      request.readState === undefined ||
      reply.statusCode !== 200 ||
      typeof payload !== 'string'
    ) {
      return done(null, payload);
    }
    const etag = `W/"${createHash('sha1').update(payload).digest('base64url')}"`;
    reply.header('etag', etag);
    cache.set(request.url, {
      version: request.readState.version,
      body: payload,
      etag,
      until: request.cacheUntil ?? Number.POSITIVE_INFINITY,
    });
    done(null, payload);
  });
}
