import { type Db, findActiveApiKey } from '@mdq/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    apiKeyId?: string;
    apiKeyLimit?: number | null;
  }
}

interface CachedKey {
  keyId: string | null;
  limit: number | null;
  expiresAt: number;
}

// A key lookup per request would double the cost of the cheapest routes; a short TTL keeps a
// revoked key working for at most this long.
const VALID_TTL_MS = 30_000;
const INVALID_TTL_MS = 5_000;

/** Routes with `config.apiKeyInQuery` (the event streams: EventSource cannot send headers) accept `?apiKey=`. */
function keyFromQuery(request: FastifyRequest): string | undefined {
  const config = request.routeOptions.config as { apiKeyInQuery?: boolean } | undefined;
  if (!config?.apiKeyInQuery) return undefined;
  const value = (request.query as Record<string, unknown> | undefined)?.['apiKey'];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Requires `x-api-key` on every route of the scope it is registered in. */
export function registerApiKeyAuth(app: FastifyInstance, db: Db): void {
  const cache = new Map<string, CachedKey>();

  app.addHook('onRequest', async (request: FastifyRequest) => {
    const header = request.headers['x-api-key'];
    const key = (Array.isArray(header) ? header[0] : header) ?? keyFromQuery(request);
    if (!key) throw new ApiError(401, 'MISSING_API_KEY', "missing 'x-api-key' header");
    const now = Date.now();
    let entry = cache.get(key);
    if (!entry || entry.expiresAt < now) {
      const found = await findActiveApiKey(db, key);
      entry = found
        ? { keyId: found.keyId, limit: found.rateLimitPerMinute, expiresAt: now + VALID_TTL_MS }
        : { keyId: null, limit: null, expiresAt: now + INVALID_TTL_MS };
      if (cache.size > 10_000) cache.clear();
      cache.set(key, entry);
    }
    if (!entry.keyId) throw new ApiError(401, 'INVALID_API_KEY', "unknown or revoked 'x-api-key'");
    request.apiKeyId = entry.keyId;
    request.apiKeyLimit = entry.limit;
  });
}
