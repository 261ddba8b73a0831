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
          `/${network}/<route> (an alias, not listed here), and needs the x-api-key header unless its operation says ` +
          'security: [] (/health, /ready, /media/{id}; this document at /docs/json and its page at /docs need none either). ' +
          'Lists answer { data, pagination }, errors { statusCode, error, code, message }. Prices and u64 amounts are ' +
          'strings in the smallest unit. A route that sends an ETag answers 304 with no body to a matching If-None-Match.',
      },
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      },
      security: [{ apiKey: [] }],
    },
    // One path form in the listing: `/{network}/api/<route>`. The same routes without `/api` are
    // served as aliases (the seed shows both) and left out, so a reader and a generated client
    // see each endpoint once.
    transform: ({ schema, url, route }) => {
      const alias = url.startsWith(`/${network}/`) && !url.startsWith(`/${network}/api/`);
      if (alias) return { schema: { ...schema, hide: true }, url };
      return {
        schema: {
          ...schema,
          ...optionalDefaults(schema.querystring),
          ...notModified(schema.response, route.config),
          // @fastify/websocket hides its routes; the feed's WebSocket route is part of the API.
          ...('websocket' in route && route.websocket ? { hide: false } : {}),
        },
        url,
      };
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

/**
 * The 304 every conditional route answers (plugins/cache.ts: `cacheSeconds` or `readCache`),
 * added to its document from the same route option the hook reads.
 */
function notModified(
  response: unknown,
  config: { cacheSeconds?: number; readCache?: unknown } | undefined,
): { response?: Record<string, unknown> } {
  if (config?.cacheSeconds === undefined && !config?.readCache) return {};
  return { response: { ...(response as Record<string, unknown>), 304: NOT_MODIFIED } };
}

/** A 304: no body; the ETag of the body the client holds still names the answer. */
export const NOT_MODIFIED = {
  description: 'Not Modified: the If-None-Match ETag still names the answer; no body',
  type: 'null',
};

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
