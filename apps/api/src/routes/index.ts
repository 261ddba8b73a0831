import type { FastifyInstance } from 'fastify';
import { registerAddressNormalization } from '../plugins/addresses';
import { registerSecretKeyOnly } from '../plugins/auth';
import { registerConditionalCaching } from '../plugins/cache';
import { RESPONSE_CACHE_DEFAULTS, registerResponseCache } from '../plugins/response-cache';
import { collectionRoutes } from './collection';
import type { RouteDeps } from './deps';
import { exportRoutes } from './export';
import { lootboxRoutes } from './lootbox';
import { marketRoutes } from './market';
import { marketUserRoutes } from './market/user';
import { processCollectionUriRoutes } from './process-collection-uri-cache';
import { rankingRoutes } from './rankings';
import { rarityRoutes } from './rarities';
import { refreshMetadataRoutes } from './refresh-metadata';
import { tokenRoutes } from './tokens';
import { userRoutes } from './user';
import { graphqlRoutes } from './v1/graphql';
import { validateMetadataRoutes } from './validate-metadata';
import { webhookRoutes } from './webhooks';
import { whoamiRoutes } from './whoami';

/**
 * Every area route, registered once per path form (with and without `/api`). Each file serves one
 * URL group and is named for it (`market/user.ts`: `/market/user-*`); test/route-files.test.ts
 * holds them to it. The order is the OpenAPI document's.
 */
export async function areaRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  registerAddressNormalization(app);
  // Before the conditional-caching hook: it stores the body that hook may turn into a 304.
  registerResponseCache(app, {
    source: deps.readState,
    bounds: deps.cache ?? RESPONSE_CACHE_DEFAULTS,
    now: deps.now,
  });
  registerConditionalCaching(app);
  await whoamiRoutes(app);
  await tokenRoutes(app, deps);
  await marketRoutes(app, deps);
  await marketUserRoutes(app, deps);
  await userRoutes(app, deps);
  await lootboxRoutes(app, deps);
  await rarityRoutes(app, deps);
  await rankingRoutes(app, deps);
  // What a publishable (browser) key may not do: the utility writes, metadata refreshes, bulk
  // export, webhook management. Two scopes keep the routes in their order (the OpenAPI document's).
  await app.register(async (secret) => {
    registerSecretKeyOnly(secret);
    await processCollectionUriRoutes(secret, deps);
    await validateMetadataRoutes(secret);
    await refreshMetadataRoutes(secret, deps);
    await exportRoutes(secret, deps);
  });
  await collectionRoutes(app, deps);
  await app.register(async (secret) => {
    registerSecretKeyOnly(secret);
    await webhookRoutes(secret, deps);
  });
  await graphqlRoutes(app, deps);
}
