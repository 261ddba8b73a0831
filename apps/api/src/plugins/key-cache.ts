import {
  type ActiveApiKey,
  type Db,
  findActiveApiKey,
  type KeyRevocationListener,
  listenForKeyRevocations,
} from '@mdq/db';
import { LRUCache } from 'lru-cache';

export interface KeyCacheOptions {
  /** Postgres URL to LISTEN on for revocations; without it entries live only `unlistenedTtlMs`. */
  listenUrl?: string;
  /** How long a valid key is trusted while revocations are heard (default 5 min). */
  validTtlMs?: number;
  /** How long a valid key is trusted while nobody listens for revocations (default 2 s). */
  unlistenedTtlMs?: number;
  /** Cached keys at most (default 10,000): memory stays bounded whatever callers send. */
  max?: number;
}

type KeyEntry = ActiveApiKey;

export interface KeyCache {
  /** The active key, or null when unknown or revoked. */
  lookup(key: string): Promise<KeyEntry | null>;
  close(): Promise<void>;
}

/**
 * One cache of valid API keys for every path prefix of the API. Revocation is announced with
 * Postgres NOTIFY (revokeApiKey), so a revoked key stops working at once on both prefixes; while the
 * listener is down (database restarting) entries are trusted only briefly. Unknown keys are not
 * cached: each costs a lookup, which the invalid-key limiter (auth.ts) bounds per client instead.
 */
export function createKeyCache(db: Db, options: KeyCacheOptions = {}): KeyCache {
  const cache = new LRUCache<string, KeyEntry>({ max: options.max ?? 10_000, ttlAutopurge: false });
  const validTtl = options.validTtlMs ?? 300_000;
  const unlistenedTtl = options.unlistenedTtlMs ?? 2_000;
  const listener: KeyRevocationListener | null = options.listenUrl
    ? listenForKeyRevocations(options.listenUrl, {
        revoked: (keyId) => {
          for (const [key, entry] of cache.entries()) if (entry.keyId === keyId) cache.delete(key);
        },
        // Back after an outage: a revocation may have been missed meanwhile.
        reset: () => cache.clear(),
      })
    : null;

  return {
    async lookup(key) {
      const hit = cache.get(key);
      if (hit) return hit;
      const found = await findActiveApiKey(db, key);
      if (!found) return null;
      cache.set(key, found, { ttl: listener?.listening ? validTtl : unlistenedTtl });
      return found;
    },
    async close() {
      await listener?.close();
    },
  };
}
