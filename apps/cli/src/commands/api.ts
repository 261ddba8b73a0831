import cluster from 'node:cluster';
import { loadConfig } from '@mdq/config';
import type { Command } from 'commander';
import { onShutdown } from '../runtime/lifecycle';
import { configureLogging } from '../runtime/log';

export function apiCommand(program: Command): void {
  program
    .command('api')
    .description('Serve the HTTP API (HOST, PORT) from DATABASE_URL or the running embedded database')
    .action(async () => {
      const config = loadConfig();
      configureLogging(config);
      const [
        { startApiServers },
        { resolveDatabase },
        worker,
        { gateways },
        { resolveRedisUrl },
        { mediaRendererFor },
      ] = await Promise.all([
        import('@mdq/api'),
        import('../runtime/database'),
        import('@mdq/worker'),
        import('../runtime/gateways'),
        import('../runtime/redis'),
        import('../runtime/media'),
      ]);
      // With MDQ_API_WORKERS > 1 this runs again in each cluster worker: only the primary migrates.
      const database = await resolveDatabase(config, { mayStart: false, migrate: cluster.isPrimary });
      const redisUrl = await resolveRedisUrl(config);
      // refresh-metadata queues crawls on the worker's queue; without Redis the worker's sweep does.
      const crawls = redisUrl ? worker.metadataCrawlProducer(redisUrl, config.queuePrefix) : null;
      const api = await startApiServers(config, database.url, {
        resolveCollectionUri: (id) => worker.resolveCollectionUri(database.db, id, gateways(config)),
        ...(crawls ? { requestMetadataCrawl: crawls.request } : {}),
        redisUrl,
        media: await mediaRendererFor(config, database.db),
      });
      // A cluster worker serves until the primary stops it.
      if (!api) return;
      const processes = api.workers > 1 ? ` (${api.workers} processes)` : '';
      console.log(`mdq api listening on ${api.url}/${config.network}/api${processes}`);
      onShutdown([database.close, api.close, ...(crawls ? [crawls.close] : [])]);
    });
}
