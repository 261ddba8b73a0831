import type { FastifyInstance, FastifyRequest } from 'fastify';
import { thumbnailPath } from '../routes/media';

export interface ThumbnailUrlOptions {
  network: string;
  /** The API's public address (MDQ_PUBLIC_URL); else each request's protocol and Host. */
  publicUrl: string | undefined;
  /** False when no renderer is configured: the URLs would only answer 503, so they are null. */
  enabled: boolean;
}

/**
 * Adds `thumbnailUrl` to every token and collection in a response: objects that carry a media
 * source (`tokenId` with `tokenUri`, or `collectionId` with `collectionUrl`) get the absolute URL
 * of their 256-pixel WebP thumbnail, null when they have no URI. One hook rather than a field in
 * each row mapper: the shapes stay as the queries return them, and every present and future
 * shape with a media source gets the URL; the response schemas declare the field.
 */
export function registerThumbnailUrls(scope: FastifyInstance, options: ThumbnailUrlOptions): void {
  scope.addHook('preSerialization', async (request, _reply, payload) => {
    if (payload === null || typeof payload !== 'object') return payload;
    const base = options.publicUrl ?? originOf(request);
    addThumbnailUrls(payload, (id) =>
      options.enabled ? `${base}${thumbnailPath(options.network, id)}` : null,
    );
    return payload;
  });
}

/** Fastify's protocol and host (X-Forwarded-* only when trustProxy is set). */
function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** Walks a response body (depth-bounded: bodies are pages of rows with a few nested objects). */
function addThumbnailUrls(value: unknown, urlOf: (id: string) => string | null, depth = 0): void {
  if (depth > 6 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) addThumbnailUrls(item, urlOf, depth + 1);
    return;
  }
  const row = value as Record<string, unknown>;
  const source =
    'tokenUri' in row && typeof row['tokenId'] === 'string'
      ? { id: row['tokenId'], uri: row['tokenUri'] }
      : 'collectionUrl' in row && typeof row['collectionId'] === 'string'
        ? { id: row['collectionId'], uri: row['collectionUrl'] }
        : null;
  if (source) row['thumbnailUrl'] = source.uri ? urlOf(source.id) : null;
  for (const key in row) {
    const child = row[key];
    if (child !== null && typeof child === 'object') addThumbnailUrls(child, urlOf, depth + 1);
  }
}
