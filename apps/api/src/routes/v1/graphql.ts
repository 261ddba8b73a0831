import type { FastifyInstance, FastifyReply } from 'fastify';
import { answerGraphql, type GraphqlRequest } from '../../graphql/execute';
import { buildIndexerSchema } from '../../graphql/schema';
import { ApiError } from '../../plugins/errors';
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

/**
 * The Aptos Indexer API's NFT tables as its Hasura GraphQL serves them (`/v1/graphql`, POST with a
 * JSON body or GET with `query` / `variables` / `operationName`), behind the API key, the rate limit
 * and the metrics of every keyed route. GraphQL errors (including every cap) answer 200 with
 * `errors`, as Hasura does; a malformed HTTP request answers 400.
 */
export async function graphqlRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  shared ??= buildIndexerSchema();
  const indexer = shared;
  const { db, limits } = deps.graphql;
  const send = async (reply: FastifyReply, request: GraphqlRequest) => {
    const body = await answerGraphql(db, indexer, request, limits);
    return reply.type('application/json; charset=utf-8').send(body);
  };
  // Read-only (no mutations are served), so a browser dApp's publishable key may POST here too.
  app.post(
    '/v1/graphql',
    { schema: { hide: true }, config: { publishableKey: true } },
    async (request, reply) => send(reply, requestOf(request.body, 'body')),
  );
  app.get('/v1/graphql', { schema: { hide: true } }, async (request, reply) =>
    send(reply, requestOf(request.query, 'query')),
  );
}
