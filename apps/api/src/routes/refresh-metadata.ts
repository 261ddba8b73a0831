import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Address, ERRORS, Nullable, One, StringEnum } from '@mdq/contracts';
import { findRefreshTarget, requestMetadataRefresh } from '@mdq/db/read';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../plugins/errors';
import type { RouteDeps } from './deps';

const RefreshMetadataInput = Type.Union(
  [
    Type.Object(
      { tokenId: Address("token id: refresh this token's document") },
      { additionalProperties: false },
    ),
    Type.Object(
      { collectionId: Address("collection id: refresh the collection's document and every token's") },
      { additionalProperties: false },
    ),
  ],
  { description: 'either `tokenId` or `collectionId`' },
);

const RefreshMetadataAccepted = Type.Object({
  scope: StringEnum(['token', 'collection']),
  collectionId: Type.String(),
  tokenId: Nullable(Type.String()),
  marked: Type.Integer({ description: 'stored documents made due now (ones never fetched are due already)' }),
  queued: Type.Boolean({
    description:
      "the collection's crawl was queued now; false: the worker's sweep picks it up (within a minute)",
  }),
});

const tags = ['utility'];

/** Refresh requests per API key per minute: each can make a whole collection's documents due. */
const REFRESH_METADATA_PER_MINUTE = 10;

/**
 * `POST /refresh-metadata`: re-fetch a token's off-chain document, or a collection's and all its
 * tokens', as marketplaces offer. The documents become due now and the collection's crawl is queued
 * (when this process can reach the worker's queue); the answer is 202 at once, the crawl follows.
 */
export async function refreshMetadataRoutes(scope: FastifyInstance, deps: RouteDeps): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/refresh-metadata',
    {
      schema: {
        tags,
        summary: "Re-fetch a token's or a whole collection's off-chain metadata document",
        body: RefreshMetadataInput,
        response: { 202: One(RefreshMetadataAccepted), ...ERRORS, 415: ERRORS[400] },
      },
      config: { rateLimit: { max: REFRESH_METADATA_PER_MINUTE, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const input = request.body;
      const target = await findRefreshTarget(deps.db, input);
      if (!target) {
        throw 'tokenId' in input
          ? new ApiError(404, 'TOKEN_NOT_FOUND', `no token ${input.tokenId}`)
          : new ApiError(404, 'COLLECTION_NOT_FOUND', `no collection ${input.collectionId}`);
      }
      const marked = await requestMetadataRefresh(deps.db, target, deps.now());
      // The documents are due in the database already: a queue that cannot be reached only means
      // the worker's sweep (every minute) crawls them instead of the queue doing it now.
      const queued = deps.requestMetadataCrawl
        ? await deps.requestMetadataCrawl(target.collectionId).then(
            () => true,
            (err: unknown) => {
              request.log.warn({ err }, 'metadata crawl not queued; the sweep will pick it up');
              return false;
            },
          )
        : false;
      return reply.code(202).send({
        data: {
          scope: target.tokenId === null ? 'collection' : 'token',
          collectionId: target.collectionId,
          tokenId: target.tokenId,
          marked,
          queued,
        },
      });
    },
  );
}
