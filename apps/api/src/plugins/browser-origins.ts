import { originAllowed } from '@mdq/config';
import { type Db, publishableKeyOrigins } from '@mdq/db';

export interface OriginPolicyOptions {
  /** MDQ_CORS_ORIGINS: exact origins and `https://*.domain` patterns (parsed by @mdq/config). */
  configured: readonly string[];
  /** How long the publishable keys' origins are trusted before they are read again (default 10 s). */
  ttlMs?: number;
  /** An origin not found is looked up again at most this often (default 1 s): a new key works at once. */
  missRefreshMs?: number;
}

/** Which browser origins may call the API: one answer for CORS, the feed's streams and the key check. */
export interface OriginPolicy {
  allowed(origin: string): Promise<boolean>;
}

/**
 * The allowed origins are MDQ_CORS_ORIGINS plus every origin an active publishable key lists: a
 * preflight carries no key, so the page of a publishable key must pass CORS on its key's origins
 * alone; the key is then checked against its own list (auth.ts). The keys' origins are read from
 * the database (a small table) once per `ttlMs`, and again on an unknown origin at most once per
 * `missRefreshMs`, with one read in flight shared by the requests that ask meanwhile.
 */
export function createOriginPolicy(db: Db, options: OriginPolicyOptions): OriginPolicy {
  const ttl = options.ttlMs ?? 10_000;
  const missRefresh = options.missRefreshMs ?? 1_000;
  let keyOrigins: string[] = [];
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | null = null;

  const refresh = () => {
    reading ??= publishableKeyOrigins(db)
      .then((origins) => {
        keyOrigins = origins;
        readAt = Date.now();
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };

  return {
    async allowed(origin) {
      if (originAllowed(options.configured, origin)) return true;
      const age = Date.now() - readAt;
      if (age > ttl) await refresh();
      if (originAllowed(keyOrigins, origin)) return true;
      if (Date.now() - readAt > missRefresh) {
        await refresh();
        return originAllowed(keyOrigins, origin);
      }
      return false;
    },
  };
}

/**
 * A request's own origin: a page of the API itself (the /docs page) calls it with `Origin` equal to
 * the host it was served from. Compared by host only: behind a TLS-terminating proxy the scheme the
 * API sees is not the browser's.
 */
export function sameOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}
