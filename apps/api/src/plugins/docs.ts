import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { registerSecurityHeaders } from './security-headers';

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
          `/${network}/<route> (an alias, not listed here), and needs the x-api-key header. Lists answer { data, pagination }, errors ` +
          '{ statusCode, error, code, message }. Prices and u64 amounts are strings in the smallest unit.',
      },
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      },
      security: [{ apiKey: [] }],
    },
    // One path form in the listing: `/{network}/api/<route>`. The same routes without `/api` are
    // served as aliases (the seed shows both) and left out, so a reader and a generated client
    // see each endpoint once.
    transform: ({ schema, url }) => {
      const alias = url.startsWith(`/${network}/`) && !url.startsWith(`/${network}/api/`);
      if (alias) return { schema: { ...schema, hide: true }, url };
      return { schema: { ...schema, ...optionalDefaults(schema.querystring) }, url };
    },
  });
  // The key is entered once (Authorize) and kept across reloads of the page. Its own scope: the
  // page's security headers and content security policy stay off the JSON routes.
  await app.register(async (page) => {
    await registerSecurityHeaders(page);
    await page.register(swaggerUi, {
      routePrefix: '/docs',
      // No badge from validator.swagger.io: the page loads nothing from elsewhere.
      uiConfig: {
        persistAuthorization: true,
        displayRequestDuration: true,
        tryItOutEnabled: true,
        validatorUrl: null,
      },
    });
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

interface ObjectSchema {
  properties?: Record<string, { default?: unknown }>;
  required?: string[];
}

/**
 * A query parameter with a default (page, limit, …) is optional for the caller, though TypeBox
 * lists it as required so that Ajv fills the default in: the document says what a caller must send.
 */
function optionalDefaults(querystring: unknown): { querystring?: ObjectSchema } {
  const q = querystring as ObjectSchema | undefined;
  if (!q?.properties || !q.required) return {};
  const properties = q.properties;
  return {
    querystring: { ...q, required: q.required.filter((name) => properties[name]?.default === undefined) },
  };
}
