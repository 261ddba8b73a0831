import type { Db } from '@mdq/db';
import type { FastifyInstance } from 'fastify';
import { registerAddressNormalization } from '../plugins/addresses';
import { registerConditionalCaching } from '../plugins/cache';
import { marketRoutes } from './market';
import { tokenRoutes } from './tokens';

export interface RouteDeps {
  db: Db;
  readDb: Db;
}

/** Every spec area, registered once per path form (with and without `/api`). */
export async function areaRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  registerAddressNormalization(app);
  registerConditionalCaching(app);
  // Probe route so that clients and tests can check a key without touching data.
  app.get('/whoami', { schema: { hide: true } }, async (request) => ({ data: { keyId: request.apiKeyId } }));
  await tokenRoutes(app, deps);
  await marketRoutes(app, deps);
}
