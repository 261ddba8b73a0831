import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { type GraphqlRequest, type PreparedGraphql, prepareGraphql, runGraphql } from '../../graphql/execute';
import { buildIndexerSchema } from '../../graphql/schema';
import { ApiError } from '../../plugins/errors';
import {
  checkReadCacheConfig,
  type ReadCacheConfig,
  type RequestReadCache,
} from '../../plugins/read-cache-config';
import type { RouteDeps } from '../deps';

/** One schema per process: built once from the table descriptions, shared by both path forms. */
let shared: ReturnType<typeof buildIndexerSchema> | undefined;

function requestOf(input: unknown, from: 'body' | 'query'): GraphqlRequest {
  if (typeof input !== 'object' || input === null) {
    throw new ApiError(400, 'INVALID_PARAMETER', `the ${from} must be an object with a 'query' string`);
  }
  const { query, variables, operationName } = input as Record<string, unknown>;
  if (typeof query !== 'string' || query.length === 0) {
    throw new ApiError(400, 'INVALID_PARAMETER', `'query' must be a non-empty string`);
  }
  let vars = variables;
  if (typeof vars === 'string' && from === 'query') {
    try {
      vars = vars === '' ? null : JSON.parse(vars);
    } catch {
      throw new ApiError(400, 'INVALID_PARAMETER', `'variables' is not JSON`);
    }
  }
  if (vars != null && (typeof vars !== 'object' || Array.isArray(vars))) {
    throw new ApiError(400, 'INVALID_PARAMETER', `'variables' must be an object`);
  }
  if (operationName != null && typeof operationName !== 'string') {
    throw new ApiError(400, 'INVALID_PARAMETER', `'operationName' must be a string`);
  }
  return {
    query,
    variables: (vars as Record<string, unknown> | null | undefined) ?? null,
    operationName: operationName ?? null,
  };
}

/** A request's preparation and read cache, kept by its text: clients send the same few again and again. */
interface Prepared {
  prepared: PreparedGraphql;
  cache: Omit<RequestReadCache, 'id'> | undefined;
}

/** A prepared request with its text (`id`: the route, operation name, variables and query). */
type Kept = Prepared & { id: string };

/** Requests longer than this (query, variables and name) are prepared each time, not kept. */
const MAX_KEPT_REQUEST = 16_384;

/**
 * What a prepared request's answer is cached under (RequestReadCache): the counters of the tables
 * its statement reads (operationReads), those of one collection or wallet keyed on that scope's.
 * An operation that runs no SQL (an error, introspection alone) is not cached: it costs no query.
 */
function readCacheOfPrepared(prepared: PreparedGraphql): Prepared['cache'] {
  if (prepared.kind !== 'plan' || prepared.fields.length === 0) return undefined;
  const { tables, scope } = prepared.reads;
  const config: ReadCacheConfig = {
    tables: tables as ReadCacheConfig['tables'],
    ...(scope?.kind === 'wallet' && {
      wallet: { tables: scope.tables as NonNullable<ReadCacheConfig['wallet']>['tables'] },
    }),
    ...(scope?.kind === 'collection' && {
      collection: { tables: scope.tables as NonNullable<ReadCacheConfig['collection']>['tables'] },
    }),
  };
  // What the static routes' declarations get at registration: a wrong one would serve stale answers.
  checkReadCacheConfig('/v1/graphql', config);
  return { config, selector: scope?.selector };
}

/**
 * The Aptos Indexer API's NFT tables as its Hasura GraphQL serves them (`/v1/graphql`, POST with a
 * JSON body or GET with `query` / `variables` / `operationName`), behind the API key, the rate limit
 * and the metrics of every keyed route. GraphQL errors (including every cap) answer 200 with
 * `errors`, as Hasura does; a malformed HTTP request answers 400. Answers are cached as the pages'
 * are, each request's under the tables its statement reads (`readCacheOf`), so a block that wrote
 * none of them leaves it cached; both methods share an answer.
 */
export async function graphqlRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  shared ??= buildIndexerSchema();
  const indexer = shared;
  const { db, limits } = deps.graphql;
  // Bounded in bytes too: a request's text is up to MAX_KEPT_REQUEST, its plan a few kB (the caps
  // bound its fields; a table reaches at most two others).
  const kept = new LRUCache<string, Prepared>({
    max: 4096,
    maxSize: 32 * 1024 * 1024,
    sizeCalculation: (_entry, id) => id.length + 4096,
  });
  const preparedOf = (request: FastifyRequest): Kept => {
    if (request.graphql) return request.graphql;
    // GET (and its HEAD) carry the request in the query string, POST in the body.
    const fromQuery = request.method !== 'POST';
    const body = requestOf(fromQuery ? request.query : request.body, fromQuery ? 'query' : 'body');
    const id = `${request.routeOptions.url}\n${JSON.stringify(body.operationName)}\n${JSON.stringify(body.variables)}\n${body.query}`;
    let entry = kept.get(id);
    if (!entry) {
      const prepared = prepareGraphql(indexer, body, limits);
      entry = { prepared, cache: readCacheOfPrepared(prepared) };
      if (id.length <= MAX_KEPT_REQUEST) kept.set(id, entry);
    }
    request.graphql = { ...entry, id };
    return request.graphql;
  };
  const readCacheOf = (request: FastifyRequest): RequestReadCache | undefined => {
    let prepared: Kept;
    try {
      prepared = preparedOf(request);
    } catch {
      return undefined; // a malformed request: the handler answers its 400
    }
    return prepared.cache && { ...prepared.cache, id: prepared.id };
  };
  const send = async (request: FastifyRequest, reply: FastifyReply) => {
    const { prepared } = preparedOf(request);
    const result = await runGraphql(db, indexer, prepared, limits);
    if (!result.cacheable) request.cacheSkip = true;
    return reply.type('application/json; charset=utf-8').send(result.body);
  };
  // Read-only (no mutations are served), so a browser dApp's publishable key may POST here too.
  app.post('/v1/graphql', { schema: { hide: true }, config: { publishableKey: true, readCacheOf } }, send);
  app.get('/v1/graphql', { schema: { hide: true }, config: { readCacheOf } }, send);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The GraphQL request prepared once, for its read cache and its handler. */
    graphql?: Kept;
  }
}
