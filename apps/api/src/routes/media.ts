import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Address, ErrorBody } from '@mdq/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { registerAddressNormalization } from '../plugins/addresses';
import { matchesIfNoneMatch } from '../plugins/cache';
import { NOT_MODIFIED } from '../plugins/docs';
import { ApiError } from '../plugins/errors';

type MediaWidth = 64 | 256 | 512 | 1024;
type MediaFormat = 'webp' | 'avif' | 'png';

/** The worker's renderer (apps/worker createMediaRenderer), injected so the API holds no image code. */
export interface MediaService {
  thumbnail(
    id: string,
    width: MediaWidth,
    format: MediaFormat,
  ): Promise<{ body: Buffer; etag: string; contentType: string; fromCache: boolean }>;
}

// A week: a thumbnail changes only when its token's URI does, and then its ETag changes too.
const CACHE_CONTROL = 'public, max-age=604800, stale-while-revalidate=86400';

const MediaQuery = Type.Object({
  // An integer enum with a type: TypeBox's `Type.Enum` emits an `enum` without `type`, which Ajv never
  // coerces, so `?w=256` (a string) would fail validation.
  w: Type.Integer({
    enum: [64, 256, 512, 1024],
    default: 256,
    description: 'width (and height bound), pixels',
  }),
  format: Type.Union([Type.Literal('webp'), Type.Literal('avif'), Type.Literal('png')], { default: 'webp' }),
});

/** Where a token's or collection's thumbnail is served (the URL the responses carry). */
export function thumbnailPath(network: string, id: string, width: MediaWidth = 256): string {
  return `/${network}/api/media/${id}?w=${width}&format=webp`;
}

/**
 * GET /media/:id — a token's or collection's image as a thumbnail. Outside the API-key scope:
 * an <img> cannot send a header, and the work is bounded (only known ids, one render per
 * id × width × format, then the disk cache). Errors keep the API's envelope.
 */
export async function mediaRoutes(scope: FastifyInstance, media: MediaService | undefined): Promise<void> {
  // Outside the keyed scope that registers it for the other routes.
  registerAddressNormalization(scope);
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const errors = { 400: ErrorBody, 404: ErrorBody, 422: ErrorBody, 503: ErrorBody };
  app.get(
    '/media/:id',
    {
      schema: {
        tags: ['media'],
        summary: "A token's or collection's image, resized and re-encoded (webp, avif or png)",
        params: Type.Object({ id: Address('token id or collection id') }),
        querystring: MediaQuery,
        // An <img> sends no header: no key (see above).
        security: [],
        response: {
          200: {
            description: 'the thumbnail, with a strong ETag and a week of public caching',
            content: Object.fromEntries(
              ['image/webp', 'image/avif', 'image/png'].map((type) => [
                type,
                { schema: Type.String({ format: 'binary' }) },
              ]),
            ),
          },
          304: NOT_MODIFIED,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      if (!media) throw new ApiError(503, 'MEDIA_UNAVAILABLE', 'media thumbnails are not configured');
      const id = request.params.id;
      const { w, format } = request.query;
      let thumbnail: Awaited<ReturnType<MediaService['thumbnail']>>;
      try {
        thumbnail = await media.thumbnail(id, w as MediaWidth, format);
      } catch (error) {
        throw mediaError(error);
      }
      reply
        .header('content-type', thumbnail.contentType)
        .header('etag', thumbnail.etag)
        .header('cache-control', CACHE_CONTROL)
        .header('x-media-cache', thumbnail.fromCache ? 'hit' : 'miss');
      if (matchesIfNoneMatch(request.headers['if-none-match'], thumbnail.etag)) {
        return (reply as unknown as FastifyReply).code(304).send();
      }
      return (reply as unknown as FastifyReply).send(thumbnail.body);
    },
  );
}

/** The renderer's failures by name: missing → 404, refused original → 422, origin down → 503. */
function mediaError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const message = error.message;
  if (error.name === 'MediaNotFoundError') return new ApiError(404, 'MEDIA_NOT_FOUND', message);
  if (/timed out|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|socket hang up/i.test(message)) {
    return new ApiError(503, 'MEDIA_UNAVAILABLE', `the original could not be fetched: ${message}`);
  }
  if (
    ['MediaRefusedError', 'FetchRefusedError', 'FetchForbiddenError', 'ResolveError'].includes(error.name)
  ) {
    return new ApiError(422, 'MEDIA_REFUSED', message);
  }
  return error;
}
