import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ERRORS, One } from '@mdq/contracts';
import { validateMetadata } from '@mdq/worker/validate-metadata';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

const ValidateMetadataQuery = Type.Object({
  kind: Type.Union([Type.Literal('token'), Type.Literal('collection')], {
    default: 'token',
    description: 'which metadata format the body follows',
  }),
});

/** Any JSON object: the validator, not Ajv, reports what is wrong with it (with JSON paths). */
const MetadataDocument = Type.Record(Type.String(), Type.Unknown(), {
  description: 'a token or collection metadata document',
});

const Issue = Type.Object({ path: Type.String(), message: Type.String() });

const MetadataReport = Type.Object({
  valid: Type.Boolean(),
  errors: Type.Array(Issue),
  warnings: Type.Array(Issue),
});

const tags = ['utility'];

/** `/validate-metadata`: the worker's metadata validator over a posted document. */
export async function validateMetadataRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/validate-metadata',
    {
      schema: {
        tags,
        summary:
          'Validate token or collection metadata before minting: errors (with JSON paths) and warnings',
        querystring: ValidateMetadataQuery,
        body: MetadataDocument,
        response: { 200: One(MetadataReport), ...ERRORS, 415: ERRORS[400] },
      },
    },
    async (request) => ({ data: validateMetadata(request.body, request.query.kind) }),
  );
}
