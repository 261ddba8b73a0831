import cluster from 'node:cluster';
import { loadConfig } from '@mdq/config';
import type { Command } from 'commander';
import { onShutdown } from '../runtime/lifecycle';

export function apiCommand(program: Command): void {
  program
    .command('api')
    .description('Serve the HTTP API (HOST, PORT) from DATABASE_URL or the running embedded database')
    .action(async () => {
      const config = loadConfig();
      const [{ startApiServers }, { resolveDatabase }, worker, { gateways }, { resolveRedisUrl }] =
        await Promise.all([
          import('@mdq/api'),
          import('../runtime/database'),
          import('@mdq/worker'),
          import('../runtime/gateways'),
          import('../runtime/redis'),
        ]);
      // With MDQ_API_WORKERS > 1 this runs again in each cluster worker: only the primary migrates.
      const database = await resolveDatabase(config, { mayStart: false, migrate: cluster.isPrimary });
      const api = await startApiServers(config, database.url, {
        resolveCollectionUri: (id) => worker.resolveCollectionUri(database.db, id, gateways(config)),
        redisUrl: await resolveRedisUrl(config),
        media: await worker.createMediaRenderer({
          db: database.db,
          cacheDir: config.mediaCacheDir,
          cacheBytes: config.mediaCacheBytes,
          ...gateways(config),
        }),
      });
      // A cluster worker serves until the primary stops it.
      if (!api) return;
      const processes = api.workers > 1 ? ` (${api.workers} processes)` : '';
      console.log(`mdq api listening on ${api.url}/${config.network}/api${processes}`);
      onShutdown([database.close, api.close]);
    });
}
