import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** OpenAPI 3 generated from the route schemas, served at /openapi.json with an interactive page at /docs. */
export async function registerDocs(app: FastifyInstance, network: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'mdq — marketplace data query',
        version: '0.1.0',
        description:
          `NFT marketplace data for Aptos (${network}). Every route is served under /${network}/api/<route> and ` +
          `/${network}/<route>, and needs the x-api-key header. Lists answer { data, pagination }, errors ` +
          '{ statusCode, error, code, message }. Prices and u64 amounts are strings in the smallest unit.',
      },
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      },
      security: [{ apiKey: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
