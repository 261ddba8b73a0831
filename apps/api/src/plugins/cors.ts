import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { OriginPolicy } from './browser-origins';

/**
 * What a page's script may read of an answer besides the CORS-safelisted headers: freshness, the
 * ETag for conditional requests, whether the response cache answered, the rate-limit budget, and
 * the feed's event id.
 */
const EXPOSED_HEADERS = [
  'x-mdq-indexed-version',
  'x-mdq-indexed-at',
  'x-mdq-event-id',
  'x-mdq-cache',
  'etag',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
];

/**
 * CORS (`@fastify/cors`) for the allowed origins (browser-origins.ts): the origin is echoed back
 * with `Vary: Origin`, preflights allow the key headers (`x-api-key`, `authorization`) and cache for
 * 10 minutes. No credentials mode: mdq authenticates by key, never by cookie. A disallowed origin
 * gets no CORS headers (the browser then refuses to hand the answer to the page); keyed routes
 * also refuse it themselves (auth.ts), so a stream is never held open for nothing.
 */
export async function registerCors(app: FastifyInstance, policy: OriginPolicy): Promise<void> {
  await app.register(cors, {
    origin: (origin, callback) => {
      if (!origin) return callback(null, false);
      policy.allowed(origin).then(
        (allowed) => callback(null, allowed),
        // The keys' origins cannot be read (database down): allow only what the configuration lists.
        () => callback(null, false),
      );
    },
    methods: ['GET', 'HEAD', 'POST', 'DELETE'],
    allowedHeaders: ['x-api-key', 'authorization', 'content-type', 'if-none-match', 'last-event-id'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}
