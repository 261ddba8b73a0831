import { createHash } from 'node:crypto';
import { type Db, readVersion } from '@mdq/db';
import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';

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
    /** The read version taken before the route read any data (so a cached body is never older). */
    readVersion?: string;
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

/**
 * One version query per event-loop turn, shared by the requests that asked during that turn. A
 * request only joins a query not yet sent, so the version it gets was read after it arrived: a
 * write committed before the request is always seen.
 */
export class ReadVersionProbe {
  private pending: Promise<string> | null = null;

  constructor(private readonly db: Db) {}

  get(): Promise<string> {
    if (!this.pending) {
      this.pending = new Promise((resolve, reject) => {
        setImmediate(() => {
          this.pending = null;
          readVersion(this.db).then(resolve, reject);
        });
      });
    }
    return this.pending;
  }
}

export interface ResponseCacheOptions {
  db: Db;
  /** Bodies kept (least recently used dropped first); 0 turns the cache off. */
  entries: number;
  /** The clock the routes use for `cacheUntil`. */
  now: () => Date;
}

/**
 * Version-keyed response cache for the read routes that opt in (`config.readCache`). A hit costs
 * one shared version query instead of the route's statements and serialisation; a new indexed
 * version or any other committed write changes the version, so the next request recomputes. Weak ETags name
 * the body; `Cache-Control: private, no-cache` lets clients revalidate cheaply (304) without ever
 * reusing a stale body on their own.
 */
export function registerResponseCache(app: FastifyInstance, options: ResponseCacheOptions): void {
  if (options.entries <= 0) return;
  const probe = new ReadVersionProbe(options.db);
  const cache = new LRUCache<string, Entry>({
    max: options.entries,
    // Bounded by bytes too: a few large pages must not hold the heap.
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (entry) => entry.body.length + 64,
  });

  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config.readCache) return;
    const version = await probe.get();
    request.readVersion = version;
    const entry = cache.get(request.url);
    if (!entry || entry.version !== version || options.now().getTime() >= entry.until) return;
    request.cacheHit = true;
    reply.header('content-type', 'application/json; charset=utf-8');
    reply.header('etag', entry.etag);
    return reply.send(entry.body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.routeOptions.config.readCache || request.cacheHit || request.readVersion === undefined) {
      return payload;
    }
    if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const etag = `W/"${createHash('sha1').update(payload).digest('base64url')}"`;
    reply.header('etag', etag);
    cache.set(request.url, {
      version: request.readVersion,
      body: payload,
      etag,
      until: request.cacheUntil ?? Number.POSITIVE_INFINITY,
    });
    return payload;
  });
}
