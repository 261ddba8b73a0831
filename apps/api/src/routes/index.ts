import type { Db } from '@mdq/db';
import type { FastifyInstance } from 'fastify';

export interface RouteDeps {
  db: Db;
  readDb: Db;
}

/** Every spec area, registered once per path form (with and without `/api`). */
export async function areaRoutes(app: FastifyInstance, _deps: RouteDeps): Promise<void> {
  // Probe route so that clients and tests can check a key without touching data.
  app.get('/whoami', { schema: { hide: true } }, async (request) => ({ data: { keyId: request.apiKeyId } }));
}
