import { loadConfig } from '@mdq/config';
import type { Command } from 'commander';
import { onShutdown } from '../runtime/lifecycle';

export function apiCommand(program: Command): void {
  program
    .command('api')
    .description('Serve the HTTP API (HOST, PORT) from DATABASE_URL or the running embedded database')
    .action(async () => {
      const config = loadConfig();
      const [{ startApi }, { resolveDatabase }, worker, { gateways }, { resolveRedisUrl }] =
        await Promise.all([
          import('@mdq/api'),
          import('../runtime/database'),
          import('@mdq/worker'),
          import('../runtime/gateways'),
          import('../runtime/redis'),
        ]);
      const database = await resolveDatabase(config, { mayStart: false, migrate: true });
      const api = await startApi(config, database.url, {
        resolveCollectionUri: (id) => worker.resolveCollectionUri(database.db, id, gateways(config)),
        redisUrl: await resolveRedisUrl(config),
        media: await worker.createMediaRenderer({
          db: database.db,
          cacheDir: config.mediaCacheDir,
          cacheBytes: config.mediaCacheBytes,
          ...gateways(config),
        }),
      });
      console.log(`mdq api listening on ${api.url}/${config.network}/api`);
      onShutdown([database.close, api.close]);
    });
}
