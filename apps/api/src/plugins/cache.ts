import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** When set, a 200 of this route gets a weak ETag and `Cache-Control: private, max-age=<n>`. */
    cacheSeconds?: number;
  }
}

/**
 * If-None-Match with the weak comparison RFC 9110 prescribes for it (`W/` ignored on both sides),
 * over a comma-separated list or `*`. The one check every conditional route uses.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/**
 * Conditional GETs for routes whose data changes at most every few seconds (rankings, lootboxes,
 * listing cards) and for every route of the version-keyed response cache (`readCache`): a weak
 * ETag from a hash of the serialized body, 304 on a matching If-None-Match.
 * `private` because every response sits behind an API key: a shared cache must not serve it.
 */
export function registerConditionalCaching(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const { cacheSeconds: seconds, readCache } = request.routeOptions.config;
    if ((seconds === undefined && !readCache) || reply.statusCode !== 200 || typeof payload !== 'string') {
      return done(null, payload);
    }
    // The response cache already named this body (computed once per read version, not per request).
    const known = reply.getHeader('etag');
    const etag =
      typeof known === 'string' ? known : `W/"${createHash('sha1').update(payload).digest('base64url')}"`;
    reply.header('etag', etag);
    // Without a max-age the client revalidates every time: a version-cached body may change at the next block.
    reply.header(
      'cache-control',
      seconds === undefined ? 'private, no-cache' : `private, max-age=${seconds}`,
    );
    if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
      reply.code(304);
      return done(null, '');
    }
    done(null, payload);
  });
}
