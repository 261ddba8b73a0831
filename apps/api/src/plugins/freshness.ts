import { type Db, type Freshness, readFreshness } from '@mdq/db';
import type { FastifyInstance } from 'fastify';

/**
 * The indexed version and tip, read at most once per `ttlMs` however many requests ask: every
 * answer carries them, so a read per request would double the cost of the cheapest routes. A
 * version can only be older than the truth by `ttlMs`, never newer than what the answer reflects
 * (the headers are read before the route's own query).
 */
export interface FreshnessSource {
  current(): Promise<Freshness>;
}

export function cachedFreshness(db: Db, ttlMs = 250): FreshnessSource {
  let value: Freshness | null = null;
  let readAt = 0;
  let pending: Promise<Freshness> | null = null;
  return {
    current() {
      if (value && Date.now() - readAt < ttlMs) return Promise.resolve(value);
      pending ??= readFreshness(db)
        .then((fresh) => {
          value = fresh;
          readAt = Date.now();
          return fresh;
        })
        .finally(() => {
          pending = null;
        });
      return pending;
    },
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    freshness?: Freshness;
  }
}

/**
 * `x-mdq-indexed-version` and `x-mdq-indexed-at` on every answer of the scope: how fresh the data
 * is, the first question a front end has about an NFT API. Read before the handler runs, so the
 * headers never claim a version newer than the data the handler saw (before validation, so a 400
 * carries them too). A failed read leaves the
 * headers out and lets the route itself answer (with 503 when the database is down).
 */
export function registerFreshnessHeaders(app: FastifyInstance, source: FreshnessSource): void {
  app.addHook('preValidation', async (request) => {
    request.freshness = await source.current().catch(() => undefined);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const fresh = request.freshness;
    if (fresh?.indexedVersion != null) {
      reply.header('x-mdq-indexed-version', String(fresh.indexedVersion));
      if (fresh.indexedAt) reply.header('x-mdq-indexed-at', fresh.indexedAt.toISOString());
    }
    return payload;
  });
}
