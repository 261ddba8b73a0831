import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Address, ERRORS, IsoTime, Name, Nullable, One, StringEnum } from '@mdq/contracts';
import type { Db } from '@mdq/db';
import {
  type CollectionUriState,
  collectionsNamed,
  markCollectionUriPending,
  type NamedCollection,
  readCollectionUriState,
} from '@mdq/db/read';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../plugins/errors';
import type { CollectionUriResolver, RouteDeps } from './deps';

const UriCacheInput = Type.Object({
  collectionName: Name('name of the collection to process'),
  creatorAddress: Type.Optional(Address('creator address (needed when several creators use the name)')),
});

const UriCacheState = Type.Object({
  collectionId: Type.String(),
  collection: Type.String(),
  creator: Type.String(),
  metadataUri: Nullable(Type.String()),
  imageUrl: Nullable(Type.String()),
  contentType: Nullable(Type.String()),
  status: StringEnum(['ok', 'error', 'pending']),
  error: Nullable(Type.String()),
  attempts: Type.Integer(),
  fetchedAt: Nullable(IsoTime),
  expiresAt: Nullable(IsoTime),
});

const tags = ['utility'];

async function processCollectionUri(
  db: Db,
  resolve: CollectionUriResolver | undefined,
  input: { collectionName: string; creatorAddress?: string | undefined },
): Promise<CollectionUriState> {
  const found = await collectionsNamed(db, input.collectionName, input.creatorAddress);
  const collection: NamedCollection | undefined = found[0];
  if (!collection) throw new ApiError(404, 'COLLECTION_NOT_FOUND', `no collection '${input.collectionName}'`);
  if (found.length > 1) {
    throw new ApiError(
      400,
      'AMBIGUOUS_COLLECTION',
      `several creators use '${input.collectionName}': pass 'creatorAddress'`,
    );
  }
  if (resolve) await resolve(collection.collectionId);
  let state = await readCollectionUriState(db, collection);
  // The default, or a resolver that wrote nothing: queue it for the worker.
  if (!state || (!resolve && state.status !== 'ok')) {
    await markCollectionUriPending(db, collection);
    state = await readCollectionUriState(db, collection);
  }
  if (!state) throw new Error('collection_uri_cache entry missing after upsert');
  return state;
}

/** `/process-collection-uri-cache` (GET and POST): a collection's image URI, resolved or queued for the worker. */
export async function processCollectionUriRoutes(
  scope: FastifyInstance,
  deps: RouteDeps & { resolveCollectionUri?: CollectionUriResolver | undefined },
): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  // A write: always the primary, never the replica.
  const { db, resolveCollectionUri } = deps;
  const summary = "Resolve and cache a collection's image URI (pending until the worker has fetched it)";
  const response = { 200: One(UriCacheState), ...ERRORS };

  app.get(
    '/process-collection-uri-cache',
    { schema: { tags, summary, querystring: UriCacheInput, response } },
    async (request) => ({ data: await processCollectionUri(db, resolveCollectionUri, request.query) }),
  );

  app.post(
    '/process-collection-uri-cache',
    { schema: { tags, summary, body: UriCacheInput, response: { ...response, 415: ERRORS[400] } } },
    async (request) => ({ data: await processCollectionUri(db, resolveCollectionUri, request.body) }),
  );
}
