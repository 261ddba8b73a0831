import type { Db } from '@mdq/db';
import { loadCollectionUri, loadUriCacheEntry, saveUriCacheEntry, type UriCacheEntry } from '@mdq/db/worker';
import { allowList } from './address-policy';
import { FetchForbiddenError, type SafeFetchOptions, safeFetch } from './safe-fetch';
import { type GatewayConfig, type ResolvedUri, resolveUri, trustedOriginSet } from './uri-schemes';

export interface UriCacheOptions extends GatewayConfig {
  /** Fresh results are served from the cache this long. */
  ttlMs?: number;
  /** First retry delay after a failure; doubles per consecutive failure, capped at ttlMs. */
  errorRetryMs?: number;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Private addresses or CIDRs that may be fetched anyway (tests); empty in production. */
  allowPrivateAddresses?: readonly string[];
  /** Re-fetch even when the cached entry is fresh. */
  force?: boolean;
  now?: () => Date;
}

export const URI_CACHE_DEFAULTS = {
  ttlMs: 24 * 3_600_000,
  errorRetryMs: 5 * 60_000,
  timeoutMs: 5_000,
  maxBytes: 1_048_576,
  maxRedirects: 3,
} as const;

export interface UriCacheResult extends UriCacheEntry {
  /** False when the collection is unknown (nothing is stored then). */
  found: boolean;
  /** True when a fresh cached entry was returned without fetching. */
  fromCache: boolean;
}

class ResolveError extends Error {}

/**
 * Resolves a collection's metadata URI to its image (URL and content type) and caches the outcome.
 * The one code path for the scheduled job and the API's utility route. Never throws for anything
 * the URI or the remote host does: failures are stored as status 'error' with the reason and retried
 * with backoff; only a database failure propagates.
 */
export async function resolveCollectionUri(
  db: Db,
  collectionId: string,
  options: UriCacheOptions,
): Promise<UriCacheResult> {
  const now = options.now?.() ?? new Date();
  const collection = await loadCollectionUri(db, collectionId);
  if (!collection) {
    return {
      collectionId,
      metadataUri: null,
      imageUrl: null,
      contentType: null,
      status: 'error',
      error: 'unknown collection',
      attempts: 0,
      fetchedAt: null,
      expiresAt: null,
      found: false,
      fromCache: false,
    };
  }
  const cached = await loadUriCacheEntry(db, collectionId);
  const fresh =
    cached?.expiresAt && cached.expiresAt.getTime() > now.getTime() && cached.metadataUri === collection.uri;
  if (cached && fresh && !options.force) return { ...cached, found: true, fromCache: true };

  const ttl = options.ttlMs ?? URI_CACHE_DEFAULTS.ttlMs;
  let outcome: Pick<UriCacheEntry, 'imageUrl' | 'contentType' | 'status' | 'error'>;
  try {
    if (!collection.uri) throw new ResolveError('collection has no URI');
    outcome = { ...(await resolveImage(collection.uri, options)), status: 'ok' };
  } catch (err) {
    outcome = { imageUrl: null, contentType: null, status: 'error', error: describe(err) };
  }
  const failures = outcome.status === 'ok' ? 0 : (cached?.status === 'error' ? cached.attempts : 0) + 1;
  const retry = Math.min(
    ttl,
    (options.errorRetryMs ?? URI_CACHE_DEFAULTS.errorRetryMs) * 2 ** (failures - 1),
  );
  const saved = await saveUriCacheEntry(db, {
    collectionId,
    metadataUri: collection.uri,
    ...outcome,
    fetchedAt: now,
    expiresAt: new Date(now.getTime() + (outcome.status === 'ok' ? ttl : retry)),
  });
  return { ...saved, found: true, fromCache: false };
}

type Image = Pick<UriCacheEntry, 'imageUrl' | 'contentType' | 'error'>;

async function resolveImage(uri: string, options: UriCacheOptions): Promise<Image> {
  const timeoutMs = options.timeoutMs ?? URI_CACHE_DEFAULTS.timeoutMs;
  const fetchOptions: SafeFetchOptions = {
    timeoutMs,
    // One deadline for the whole resolution, every gateway and the image probe included: a URI
    // with three gateways must not hold a caller three times the limit.
    deadline: Date.now() + timeoutMs,
    maxBytes: options.maxBytes ?? URI_CACHE_DEFAULTS.maxBytes,
    maxRedirects: options.maxRedirects ?? URI_CACHE_DEFAULTS.maxRedirects,
    allowed: allowList(options.allowPrivateAddresses ?? []),
    trustedOrigins: trustedOriginSet(options.trustedOrigins),
    // A collection URI that is itself an image is the image: keep the headers, skip the bytes.
    wantBody: (type) => !type?.startsWith('image/'),
  };
  const metadata = await fetchFirst(resolveUri(uri, options), fetchOptions);
  if (metadata.contentType?.startsWith('image/')) {
    return { imageUrl: metadata.url, contentType: metadata.contentType, error: null };
  }
  const image = imageField(metadata.body);
  const resolved = resolveUri(image, options);
  if (resolved.kind === 'unsupported') throw new ResolveError(`image: ${resolved.reason}`);
  if (resolved.kind === 'data')
    return { imageUrl: resolved.uri, contentType: resolved.mediaType, error: null };
  // Probe the image for its content type; a probe failure still leaves a usable URL.
  try {
    const probe = await fetchFirst(resolved, { ...fetchOptions, wantBody: () => false });
    return { imageUrl: probe.url, contentType: probe.contentType, error: null };
  } catch (err) {
    // An image at a private address is refused like any fetched URL: never stored as usable.
    if (err instanceof FetchForbiddenError) throw new ResolveError(`image: ${err.message}`);
    return {
      imageUrl: resolved.candidates[0] ?? image,
      contentType: null,
      error: `image probe: ${describe(err)}`,
    };
  }
}

/** Tries each gateway in turn; returns the first 2xx. */
export async function fetchFirst(
  resolved: ResolvedUri,
  options: SafeFetchOptions,
): Promise<{ url: string; contentType: string | null; body: Buffer | null }> {
  if (resolved.kind === 'unsupported') throw new ResolveError(resolved.reason);
  if (resolved.kind === 'data') {
    if (resolved.body.length > options.maxBytes) throw new ResolveError('data URI too large');
    return { url: resolved.uri, contentType: resolved.mediaType, body: resolved.body };
  }
  let last: unknown = new ResolveError('no gateway configured');
  for (const candidate of resolved.candidates) {
    try {
      const response = await safeFetch(candidate, options);
      if (response.status >= 200 && response.status < 300) {
        return { url: response.finalUrl, contentType: response.contentType, body: response.body };
      }
      last = new ResolveError(`HTTP ${response.status} from ${new URL(candidate).host}`);
    } catch (err) {
      last = err;
    }
  }
  throw last;
}

export function imageField(body: Buffer | null): string {
  let json: unknown;
  try {
    json = JSON.parse(body?.toString('utf8') ?? '');
  } catch {
    throw new ResolveError('metadata is not JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ResolveError('metadata is not a JSON object');
  }
  const record = json as Record<string, unknown>;
  const image = [record['image'], record['image_url'], record['imageUrl']].find(
    (v): v is string => typeof v === 'string' && v.trim() !== '',
  );
  if (!image) throw new ResolveError('metadata has no image');
  return image.trim();
}

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.slice(0, 500);
}
