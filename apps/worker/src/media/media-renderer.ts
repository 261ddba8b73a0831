import { type Db, mediaSourceOf } from '@mdq/db';
import { allowList } from '../uri/address-policy';
import { fetchFirst, imageField } from '../uri/resolve-collection-uri';
import type { SafeFetchOptions } from '../uri/safe-fetch';
import { type GatewayConfig, resolveUri, trustedOriginSet } from '../uri/uri-schemes';
import { type CachedMedia, MediaCache } from './media-cache';
import {
  CONTENT_TYPES,
  MediaRefusedError,
  renderThumbnail,
  type ThumbnailFormat,
  type ThumbnailWidth,
} from './render-thumbnail';

export class MediaNotFoundError extends Error {
  override name = 'MediaNotFoundError';
}

export interface MediaRendererOptions extends GatewayConfig {
  db: Db;
  cacheDir: string;
  cacheBytes: number;
  /** Per original, redirects included (default 15 s). */
  timeoutMs?: number;
  /** Largest original fetched (default 25 MB). */
  maxBytes?: number;
  maxRedirects?: number;
  /** Tests serve originals from 127.0.0.1; never set in production. */
  allowPrivateAddresses?: readonly string[];
}

export interface Thumbnail extends CachedMedia {
  contentType: string;
  fromCache: boolean;
}

export interface MediaRenderer {
  thumbnail(id: string, width: ThumbnailWidth, format: ThumbnailFormat): Promise<Thumbnail>;
}

/**
 * Thumbnails of tokens and collections: the original is fetched through the URI cache's SSRF-safe
 * fetcher (gateways, private addresses refused at every hop, size and time caps), resized and
 * encoded with sharp, and kept in the disk cache. Concurrent requests for one thumbnail render it once.
 */
export async function createMediaRenderer(options: MediaRendererOptions): Promise<MediaRenderer> {
  const cache = new MediaCache(options.cacheDir, options.cacheBytes);
  await cache.load();
  const fetchOptions: SafeFetchOptions = {
    timeoutMs: options.timeoutMs ?? 15_000,
    maxBytes: options.maxBytes ?? 25 << 20,
    maxRedirects: options.maxRedirects ?? 3,
    allowed: allowList(options.allowPrivateAddresses ?? []),
    trustedOrigins: trustedOriginSet(options.trustedOrigins),
    userAgent: 'mdq-media/1',
  };
  const inFlight = new Map<string, Promise<Thumbnail>>();

  async function original(uri: string): Promise<Buffer> {
    const first = await fetchFirst(resolveUri(uri, options), fetchOptions);
    const body = first.body ?? Buffer.alloc(0);
    const isMetadata =
      first.contentType?.includes('json') ||
      (!first.contentType?.startsWith('image/') && body.subarray(0, 1).toString() === '{');
    if (!isMetadata) return body;
    // Token and collection URIs usually name metadata whose `image` is the picture.
    const image = await fetchFirst(resolveUri(imageField(body), options), fetchOptions);
    if (!image.body) throw new MediaRefusedError('image has no body');
    return image.body;
  }

  async function render(key: string, uri: string, width: ThumbnailWidth, format: ThumbnailFormat) {
    const body = await renderThumbnail(await original(uri), width, format);
    const stored = await cache.put(key, body);
    return { ...stored, contentType: CONTENT_TYPES[format], fromCache: false };
  }

  return {
    async thumbnail(id, width, format) {
      const source = await mediaSourceOf(options.db, id);
      if (!source) throw new MediaNotFoundError(`no token or collection ${id}`);
      if (!source.uri) throw new MediaNotFoundError(`${source.kind} ${id} has no URI`);
      const key = MediaCache.keyOf(source.uri, width, format);
      const cached = await cache.get(key);
      if (cached) return { ...cached, contentType: CONTENT_TYPES[format], fromCache: true };
      let pending = inFlight.get(key);
      if (!pending) {
        pending = render(key, source.uri, width, format).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
  };
}
