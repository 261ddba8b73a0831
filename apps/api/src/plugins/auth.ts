import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { ApiError } from './errors';
import type { KeyCache } from './key-cache';

declare module 'fastify' {
  interface FastifyRequest {
    apiKeyId?: string;
    apiKeyLimit?: number | null;
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
 * The guard every keyed scope registers: `x-api-key` (or `Authorization: Bearer <key>`) required, looked up in the one shared key
 * cache. A client presenting unknown keys is limited per IP, so guessing keys cannot turn into
 * one database lookup per request.
 */
export function createApiKeyAuth(cache: KeyCache, limit: InvalidKeyLimit = {}) {
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
    request.apiKeyId = entry.keyId;
    request.apiKeyLimit = entry.limit;
  };
}

/** `Authorization: Bearer <key>`: what the Aptos SDKs send for `clientConfig.API_KEY`. */
function bearerKey(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/** Routes with `config.apiKeyInQuery` (the event streams: EventSource cannot send headers) accept `?apiKey=`. */
function keyFromQuery(request: FastifyRequest): string | undefined {
  const config = request.routeOptions.config as { apiKeyInQuery?: boolean } | undefined;
  if (!config?.apiKeyInQuery) return undefined;
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
