import { loadConfig } from '@mdq/config';
import type { Command } from 'commander';
import { onShutdown } from '../runtime/lifecycle';
import { configureLogging } from '../runtime/log';

export function workerCommand(program: Command): void {
  program
    .command('worker')
    .description('Run the job processors and schedulers (BullMQ on Redis, in-process without one)')
    .action(async () => {
      const config = loadConfig();
      configureLogging(config);
      const [
        { startWorker },
        { resolveDatabase },
        { resolveRedisUrl },
        { gateways },
        { serveMetricsIfAsked },
        { webhookSettings },
        { mediaRendererFor },
      ] = await Promise.all([
        import('@mdq/worker'),
        import('../runtime/database'),
        import('../runtime/redis'),
        import('../runtime/gateways'),
        import('../runtime/metrics'),
        import('../runtime/webhook-settings'),
        import('../runtime/media'),
      ]);
      const database = await resolveDatabase(config, { mayStart: false, migrate: true });
      const redisUrl = await resolveRedisUrl(config);
      const worker = await startWorker({
        db: database.db,
        redisUrl,
        prefix: config.queuePrefix,
        uri: gateways(config),
        webhooks: webhookSettings(config),
        retention: config.retention,
        // Pre-renders into the cache directory the API serves from (MDQ_MEDIA_CACHE_DIR).
        media: await mediaRendererFor(config, database.db),
      });
      const metrics = await serveMetricsIfAsked(config, database.db);
      console.log(`mdq worker running (${worker.mode})${metrics ? `, metrics at ${metrics.url}` : ''}`);
      onShutdown([database.close, worker.close, async () => metrics?.close()]);
    });

  program
    .command('signals')
    .description('Operator-fed social engagement for the daily-picks ranking')
    .command('load')
    .description('Load a CSV or JSON-lines file of collection_id, observed_on, engagement[, source]')
    .argument('<file>', 'the file to load (validated whole before anything is written)')
    .action(async (file: string) => {
      const [{ loadSignals }, { resolveDatabase }] = await Promise.all([
        import('@mdq/worker'),
        import('../runtime/database'),
      ]);
      const database = await resolveDatabase(loadConfig(), { mayStart: true, migrate: true });
      try {
        const { rows } = await loadSignals(database.db, file);
        console.log(`mdq: loaded ${rows} social signals`);
      } finally {
        await database.close();
      }
    });
}
