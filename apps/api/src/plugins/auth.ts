import { originAllowed } from '@mdq/config';
import type { ApiKeyKind } from '@mdq/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { type OriginPolicy, sameOrigin } from './browser-origins';
import { ApiError } from './errors';
import type { KeyCache } from './key-cache';

declare module 'fastify' {
  interface FastifyRequest {
    apiKeyId?: string;
    apiKeyLimit?: number | null;
    apiKeyKind?: ApiKeyKind;
  }
  interface FastifyContextConfig {
    /** The event streams: EventSource cannot send headers, so `?apiKey=` is accepted. */
    apiKeyInQuery?: boolean;
    /** Secret keys only (webhooks, exports, the utility writes); set by `registerSecretKeyOnly`. */
    secretKeyOnly?: boolean;
    /** A read route that is not a GET (a query sent as a POST body): publishable keys may use it. */
    publishableKey?: boolean;
  }
}

/** Generated keys are 45 characters; anything this long is not a key and costs no lookup. */
export const MAX_API_KEY_LENGTH = 128;

export interface InvalidKeyLimit {
  /** Unknown keys a client IP may present per minute before it gets 429s (default 60). */
  perMinute?: number;
  /** Client IPs tracked at most (default 10,000). */
  maxClients?: number;
}

/**
 * The guard every keyed scope registers: a key required (`x-api-key`, or `Authorization: Bearer`,
 * or `?apiKey=` on the streams), looked up in the one shared key
 * cache. A client presenting unknown keys is limited per IP, so guessing keys cannot turn into
 * one database lookup per request. Then the browser rules (browserRules): a publishable key only
 * from its own origins and on read routes; any key refused from an origin the API does not allow.
 */
export function createApiKeyAuth(cache: KeyCache, origins: OriginPolicy, limit: InvalidKeyLimit = {}) {
  const perMinute = limit.perMinute ?? 60;
  const misses = new LRUCache<string, { count: number }>({
    max: limit.maxClients ?? 10_000,
    ttl: 60_000,
    // The window starts at the first miss and is not extended by later ones.
    updateAgeOnGet: false,
  });

  return async function authenticate(request: FastifyRequest): Promise<void> {
    const header = request.headers['x-api-key'];
    const key = (Array.isArray(header) ? header[0] : header) ?? bearerKey(request) ?? keyFromQuery(request);
    if (!key) throw new ApiError(401, 'MISSING_API_KEY', "missing 'x-api-key' header");
    const counter = misses.get(request.ip);
    if (counter && counter.count >= perMinute) {
      const left = Math.max(1, Math.ceil(misses.getRemainingTTL(request.ip) / 1000));
      throw new ApiError(
        429,
        'RATE_LIMITED',
        `too many invalid API keys from this client; retry in ${left} s`,
      );
    }
    const entry = key.length > MAX_API_KEY_LENGTH ? null : await cache.lookup(key);
    if (!entry) {
      if (counter) counter.count += 1;
      else misses.set(request.ip, { count: 1 });
      throw new ApiError(401, 'INVALID_API_KEY', "unknown or revoked 'x-api-key'");
    }
    await browserRules(request, entry, origins);
    request.apiKeyId = entry.keyId;
    request.apiKeyLimit = entry.rateLimitPerMinute;
    request.apiKeyKind = entry.kind;
  };
}

/**
 * A publishable key sits in a page's source for anyone to copy: it is accepted only with an
 * `Origin` its key lists (a browser cannot lie about it; a script can, hence the next rule) and
 * only on read routes. A secret key works everywhere, except from a browser page on an origin the
 * API does not allow: the browser would refuse the page the answer anyway (CORS), and for the
 * WebSocket, where browsers enforce nothing, this refusal is the rule itself.
 */
async function browserRules(
  request: FastifyRequest,
  entry: { kind: ApiKeyKind; origins: string[] },
  origins: OriginPolicy,
): Promise<void> {
  const origin = request.headers.origin;
  if (entry.kind === 'publishable') {
    if (!origin || !originAllowed(entry.origins, origin)) {
      throw new ApiError(
        403,
        'ORIGIN_NOT_ALLOWED',
        origin
          ? `this publishable key is not accepted from origin ${origin}`
          : 'a publishable key is accepted only from the web pages of its origins (Origin header); servers use a secret key',
      );
    }
    if (!readRoute(request)) {
      throw new ApiError(
        403,
        'SECRET_KEY_REQUIRED',
        'a publishable key can only read; this route needs a secret key (from a server, never a web page)',
      );
    }
    return;
  }
  if (origin && !sameOrigin(origin, request.headers.host) && !(await origins.allowed(origin))) {
    throw new ApiError(403, 'ORIGIN_NOT_ALLOWED', `origin ${origin} is not allowed (MDQ_CORS_ORIGINS)`);
  }
}

function readRoute(request: FastifyRequest): boolean {
  const config = request.routeOptions.config;
  if (config.secretKeyOnly) return false;
  return request.method === 'GET' || request.method === 'HEAD' || config.publishableKey === true;
}

/** `Authorization: Bearer <key>`: what the Aptos SDKs send for `clientConfig.API_KEY`. */
function bearerKey(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/** Routes with `config.apiKeyInQuery` (the event streams: EventSource cannot send headers) accept `?apiKey=`. */
function keyFromQuery(request: FastifyRequest): string | undefined {
  if (!request.routeOptions.config.apiKeyInQuery) return undefined;
  const value = (request.query as Record<string, unknown> | undefined)?.['apiKey'];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Requires `x-api-key` on every route of the scope it is registered in. */
export function registerApiKeyAuth(
  app: FastifyInstance,
  authenticate: ReturnType<typeof createApiKeyAuth>,
): void {
  app.addHook('onRequest', authenticate);
}

/** Every route registered in the scope from here on refuses publishable keys (403 SECRET_KEY_REQUIRED). */
export function registerSecretKeyOnly(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, secretKeyOnly: true };
  });
}
