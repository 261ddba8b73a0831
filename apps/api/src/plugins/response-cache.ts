import { createHash } from 'node:crypto';
import { DEFAULTS } from '@mdq/config';
import type { ReadState } from '@mdq/db';
import { responseCacheAnswers, responseCacheEvictions } from '@mdq/telemetry';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { ReadStateSource } from './freshness';
import {
  checkReadCacheConfig,
  type ReadCacheConfig,
  type RequestReadCache,
  requestReadCache,
  scopedTables,
  tablesAsked,
} from './read-cache-config';

export type { ReadCacheConfig };

declare module 'fastify' {
  interface FastifyRequest {
    /** Epoch ms after which this response is no longer true even at the same read version. */
    cacheUntil?: number;
    cacheHit?: boolean;
    /** The key this request's answer is cached under (set on a miss, when the route runs). */
    cacheKey?: string;
    /** Set on the request that computes a miss others wait for: settled with its answer. */
    cacheLeader?: (entry: Entry | null) => void;
    /** Set by a handler whose answer does not hold at its key (a timeout): sent, not kept. */
    cacheSkip?: boolean;
  }
}

interface Entry {
  key: string;
  body: string;
  etag: string;
  until: number;
}

/** How much the cache keeps per process: the least recently used body goes first at either bound. */
export interface ResponseCacheBounds {
  /** Bodies kept; 0 turns the cache off. */
  entries: number;
  /** Their bytes, in MiB: a few large pages must not hold the heap. */
  megabytes: number;
}

/** MDQ_API_CACHE_ENTRIES and MDQ_API_CACHE_MB unset (@mdq/config's defaults). */
export const RESPONSE_CACHE_DEFAULTS: ResponseCacheBounds = {
  entries: DEFAULTS.apiCacheEntries,
  megabytes: DEFAULTS.apiCacheMegabytes,
};

export interface ResponseCacheOptions {
  /** The process's one read-state source, shared with the freshness headers. */
  source: ReadStateSource;
  bounds: ResponseCacheBounds;
  /** The clock the routes use for `cacheUntil`. */
  now: () => Date;
}

/** Header on every answer of a cached route: `hit` (stored or shared body) or `miss` (the route ran). */
const CACHE_HEADER = 'x-mdq-cache';

/**
 * The key of `config`'s answers at `state`: the counter of each table the request reads (`tables`,
 * tablesAsked), in its declared order (one URL is one route, so the order is fixed). For a
 * collection page whose collection (pair or id) the reading resolved: its collection-scoped tables
 * by the '*' counter and each collection's, the pair's own counter and the ids. A pair that names
 * no collection keys on the global counters: whatever the route then finds, every write to those
 * tables retires it. A wallet page's wallet-scoped tables key the same way, on the '*' counter and
 * its bucket's.
 */
function cacheKeyOf(
  state: ReadState,
  config: ReadCacheConfig,
  tables: readonly string[],
  selector: string | undefined,
): string {
  const scope = selector === undefined ? undefined : state.scopes.get(selector);
  const scoped = scope && scope.ids.length > 0 ? scopedTables(config) : undefined;
  let key = '';
  for (const table of tables) {
    if (scope && scoped?.includes(table)) {
      key += `${state.all[table] ?? '0'}`;
      for (const id of scope.ids) key += `/${scope.versions.get(id)?.[table] ?? '0'}`;
      key += '.';
    } else {
      key += `${state.tables[table] ?? '0'}.`;
    }
  }
  if (scoped && scope) key += `${scope.pairVersion}:${scope.ids.join(',')}`;
  return key;
}

const registry = new WeakMap<object, Map<string, ReadCacheConfig>>();

/** Every cached route of the app (by its full URL) with what it declared: what the tests check. */
export function cachedRoutes(app: FastifyInstance): ReadonlyMap<string, ReadCacheConfig> {
  return registry.get(app.server) ?? new Map();
}

/**
 * Response cache for the read routes that opt in (`config.readCache`), keyed per URL by the write
 * counters of the tables the route reads (cacheKeyOf). A hit costs the read state the freshness
 * headers take anyway instead of the route's statements and serialisation: no query when the
 * counters are pushed (ReadStateSource with a signal), else one reading per event-loop turn shared
 * by the requests of the turn. A committed write to a table the route reads changes its key, so
 * the next request once the change is known recomputes, and a write to any other table leaves it
 * cached. Concurrent misses of one URL at one key share one computation:
 * the first runs the route, the others wait for its body (single-flight). Weak ETags name the
 * body; `Cache-Control: private, no-cache` lets clients revalidate cheaply (304) without ever
 * reusing a stale body on their own.
 */
export function registerResponseCache(app: FastifyInstance, options: ResponseCacheOptions): void {
  app.addHook('onRoute', (route) => {
    const config = route.config?.readCache;
    if (!config) return;
    checkReadCacheConfig(route.url, config);
    const routes = registry.get(app.server) ?? new Map<string, ReadCacheConfig>();
    routes.set(route.url, config);
    registry.set(app.server, routes);
  });
  if (options.bounds.entries <= 0) return;
  const cache = new LRUCache<string, Entry>({
    max: options.bounds.entries,
    maxSize: options.bounds.megabytes * 1024 * 1024,
    sizeCalculation: (entry) => entry.body.length + 64,
    // Counted when room was made, not when a newer answer replaced its URL's ('set').
    dispose: (_entry, _url, reason) => {
      if (reason === 'evict') responseCacheEvictions.inc();
    },
  });
  /** Misses being computed, by URL and key: what identical misses wait for. */
  const computing = new Map<string, Promise<Entry | null>>();

  const send = (request: FastifyRequest, reply: FastifyReply, entry: Entry): void => {
    request.cacheHit = true;
    reply.header('content-type', 'application/json; charset=utf-8');
    reply.header('etag', entry.etag);
    reply.header(CACHE_HEADER, 'hit');
    responseCacheAnswers.inc({ route: request.routeOptions.url ?? 'unmatched', result: 'hit' });
    reply.send(entry.body);
  };

  const lookup = (
    request: FastifyRequest,
    reply: FastifyReply,
    { config, id }: RequestReadCache,
    state: ReadState,
    done: (error?: Error) => void,
  ): void => {
    // The pair the freshness hook's reading resolved; a reading taken here resolved none.
    const key = cacheKeyOf(state, config, tablesAsked(config, request.query), request.readScope);
    const entry = cache.get(id);
    if (entry && entry.key === key && options.now().getTime() < entry.until) {
      send(request, reply, entry);
      return;
    }
    const flight = `${id}\n${key}`;
    const running = computing.get(flight);
    if (running) {
      // The same answer is being computed: take it, or run the route when the first did not get one.
      running.then((shared) => {
        if (shared && options.now().getTime() < shared.until) send(request, reply, shared);
        else {
          request.cacheKey = key;
          done();
        }
      }, done);
      return;
    }
    computing.set(
      flight,
      new Promise<Entry | null>((resolve) => {
        request.cacheLeader = (settled) => {
          request.cacheLeader = undefined;
          computing.delete(flight);
          resolve(settled);
        };
      }),
    );
    request.cacheKey = key;
    done();
  };

  // Callback hooks: a hit is the API's cheapest answer, and an async hook costs a promise each.
  // After the address hook (registered first): the pair is read in the form the reading resolved.
  app.addHook('preHandler', (request, reply, done) => {
    const readCache = requestReadCache(request);
    if (!readCache) return done();
    // Taken by the freshness hook before validation; a scope without that hook reads its own.
    if (request.readState) return lookup(request, reply, readCache, request.readState, done);
    options.source.fresh().then((state) => {
      request.readState = state;
      lookup(request, reply, readCache, state, done);
    }, done);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const readCache = request.readCache;
    if (!readCache || request.cacheHit || request.cacheKey === undefined) return done(null, payload);
    reply.header(CACHE_HEADER, 'miss');
    responseCacheAnswers.inc({ route: request.routeOptions.url ?? 'unmatched', result: 'miss' });
    if (reply.statusCode !== 200 || typeof payload !== 'string' || request.cacheSkip) {
      request.cacheLeader?.(null);
      return done(null, payload);
    }
    const etag = `W/"${createHash('sha1').update(payload).digest('base64url')}"`;
    reply.header('etag', etag);
    const entry: Entry = {
      key: request.cacheKey,
      body: payload,
      etag,
      until: request.cacheUntil ?? Number.POSITIVE_INFINITY,
    };
    cache.set(readCache.id, entry);
    request.cacheLeader?.(entry);
    done(null, payload);
  });
  // A leader that never reached onSend (the client went away): the waiters run the route themselves.
  app.addHook('onResponse', (request, _reply, done) => {
    request.cacheLeader?.(null);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    request.cacheLeader?.(null);
    done();
  });
}
