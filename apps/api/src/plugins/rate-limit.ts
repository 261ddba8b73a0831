import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { body } from './errors';
import { sharedCounterStore } from './shared-rate-counter';

export interface RateLimitOptions {
  /** Requests per minute for a key without a limit of its own. */
  perMinute: number;
  /** Requests per minute for a publishable key without a limit of its own, per key and client IP. */
  publishablePerMinute: number;
  /** Shared counters across API replicas; per-process counters without it. */
  redis?: Redis;
}

/**
 * Per API key, per minute: a key's own limit (set with `mdq keys create --rate-limit`) or the
 * default. Runs as the route's own onRequest hook, right after the scope's authentication has
 * named the key and before anything else (the read state, validation, the response cache: a
 * cached answer counts like any other, and a limited request costs no database work), so both
 * path forms and every replica (with Redis, `sharedCounterStore`) count against one budget;
 * routes without a key (health, docs) are not limited.
 *
 * A publishable key is public (it is in a page's source), so one budget per key would let any
 * copier spend the whole site's: it is counted per key and client IP, one budget per visitor, at its
 * own default (MDQ_PUBLISHABLE_RATE_LIMIT). Behind a proxy the client IP is the proxy's unless
 * Fastify's trustProxy is set; a proxy that serves the pages should then pass X-Forwarded-For.
 */
export async function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    timeWindow: 60_000,
    max: (request) =>
      request.apiKeyLimit ??
      (request.apiKeyKind === 'publishable' ? options.publishablePerMinute : options.perMinute),
    keyGenerator: (request) =>
      request.apiKeyKind === 'publishable'
        ? `${request.apiKeyId}@${request.ip}`
        : (request.apiKeyId ?? request.ip),
    allowList: (request) => request.apiKeyId === undefined,
    // A Redis outage must not take the API down with it: count nothing rather than fail requests.
    skipOnError: true,
    ...(options.redis ? { store: sharedCounterStore(options.redis, { prefix: 'mdq-rate-limit:' }) } : {}),
    errorResponseBuilder: (_request, context) => ({
      ...body(
        429,
        'RATE_LIMITED',
        `rate limit of ${context.max} requests per minute exceeded; retry in ${context.after}`,
      ),
    }),
  });
}
