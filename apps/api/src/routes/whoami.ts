import type { FastifyInstance } from 'fastify';

/** `/whoami`: a probe so that clients and tests can check a key without touching data. */
export async function whoamiRoutes(app: FastifyInstance): Promise<void> {
  app.get('/whoami', { schema: { hide: true } }, async (request) => ({ data: { keyId: request.apiKeyId } }));
}
