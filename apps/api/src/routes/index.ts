import type { FastifyInstance } from 'fastify';
import { registerAddressNormalization } from '../plugins/addresses';
import { registerSecretKeyOnly } from '../plugins/auth';
import { registerConditionalCaching } from '../plugins/cache';
import { registerResponseCache } from '../plugins/response-cache';
import { analyticsRoutes } from './analytics';
import type { RouteDeps } from './deps';
import { exportRoutes } from './export';
import { graphqlRoutes } from './graphql';
import { lootboxRoutes } from './lootbox';
import { marketRoutes } from './market';
import { rankingRoutes } from './rankings';
import { tokenRoutes } from './tokens';
import { userRoutes } from './user';
import { utilityRoutes } from './utility';
import { webhookRoutes } from './webhooks';

/** Every spec area, registered once per path form (with and without `/api`). */
export async function areaRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  registerAddressNormalization(app);
  // Before the conditional-caching hook: it stores the body that hook may turn into a 304.
  registerResponseCache(app, { source: deps.readState, entries: deps.cacheEntries ?? 10_000, now: deps.now });
  registerConditionalCaching(app);
  // Probe route so that clients and tests can check a key without touching data.
  app.get('/whoami', { schema: { hide: true } }, async (request) => ({ data: { keyId: request.apiKeyId } }));
  await tokenRoutes(app, deps);
  await marketRoutes(app, deps);
  await userRoutes(app, deps);
  await lootboxRoutes(app, deps);
  await rankingRoutes(app, deps);
  // What a publishable (browser) key may not do: the utility writes, bulk export, webhook
  // management. Two scopes keep the routes in their order (the OpenAPI document's order).
  await app.register(async (secret) => {
    registerSecretKeyOnly(secret);
    await utilityRoutes(secret, deps);
    await exportRoutes(secret, deps);
  });
  await analyticsRoutes(app, deps);
  await app.register(async (secret) => {
    registerSecretKeyOnly(secret);
    await webhookRoutes(secret, deps);
  });
  await graphqlRoutes(app, deps);
}
