import { startApi } from '@mdq/api';
import { type Config, loadConfig } from '@mdq/config';
import type { DevnetServer } from '@mdq/devnet';
import { runIndexer, watchChainTip } from '@mdq/indexer';
import { observeIndexerBatch } from '@mdq/telemetry';
import { createMediaRenderer, resolveCollectionUri, startWorker } from '@mdq/worker';
import { resolveDatabase } from '../runtime/database';
import { ensureDemoKey } from '../runtime/demo-key';
import { startEmbeddedDevnet } from '../runtime/devnet';
import { gateways } from '../runtime/gateways';
import { claimSignals, onShutdown } from '../runtime/lifecycle';
import { resolveRedisUrl } from '../runtime/redis';
import { chainSourceFor, consoleLog, decoderFor } from './indexer';

/** `mdq start`: everything in one process tree, stopped in reverse order on Ctrl-C / SIGTERM. */
export async function runStart(): Promise<void> {
  const config = loadConfig();
  const closers: (() => Promise<void>)[] = [];
  const signal = onShutdown(closers);
  try {
    await startAll(config, closers, signal);
  } catch (error) {
    // The embedded Postgres runs in its own process group and would outlive a failed start.
    for (const close of [...closers].reverse()) await close().catch(() => undefined);
    throw error;
  }
}

async function startAll(
  config: Config,
  closers: (() => Promise<void>)[],
  signal: AbortSignal,
): Promise<void> {
  const database = await resolveDatabase(config, { mayStart: true, migrate: true });
  closers.push(database.close);
  const key = await ensureDemoKey(config, database.db);

  let devnet: DevnetServer | null = null;
  let fullnodeUrl = config.fullnodeUrl;
  if (!fullnodeUrl) {
    devnet = await startEmbeddedDevnet(config);
    closers.push(devnet.close);
    fullnodeUrl = devnet.url;
  }

  const redisUrl = await resolveRedisUrl(config);
  const worker = await startWorker({
    db: database.db,
    redisUrl,
    prefix: config.queuePrefix,
    uri: gateways(config),
  });
  closers.push(worker.close);

  const source = chainSourceFor(config, fullnodeUrl, consoleLog(config), { signal });
  const tipWatcher = watchChainTip(database.db, source);
  closers.push(tipWatcher.stop);
  const indexing = runIndexer({
    db: database.db,
    source,
    ...(config.startVersion !== undefined ? { startVersion: config.startVersion } : {}),
    decode: decoderFor(config),
    notifier: worker.notifier,
    batchSize: config.indexerBatchSize,
    signal,
    log: consoleLog(config),
    onBatch: observeIndexerBatch,
  });
  closers.push(async () => {
    await indexing.catch(() => undefined);
  });
  indexing.catch((error: unknown) => {
    console.error(`mdq: the indexer stopped: ${error instanceof Error ? error.message : String(error)}`);
    process.kill(process.pid, 'SIGTERM');
  });

  const api = await startApi(
    { ...config, logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel },
    database.url,
    {
      resolveCollectionUri: (id) => resolveCollectionUri(database.db, id, gateways(config)),
      redisUrl,
      media: await createMediaRenderer({
        db: database.db,
        cacheDir: config.mediaCacheDir,
        cacheBytes: config.mediaCacheBytes,
        ...gateways(config),
      }),
    },
  );
  closers.push(api.close);

  claimSignals();
  const base = `${api.url}/${config.network}/api`;
  console.log(
    [
      '',
      `mdq is running on ${config.network}`,
      `  base URL   ${base}`,
      `  API key    ${key}`,
      `  docs       ${api.url}/docs`,
      `  metrics    ${api.url}/metrics`,
      ...(config.adminKey && redisUrl ? [`  queues     ${api.url}/admin/queues (admin key)`] : []),
      `  database   ${database.origin}${database.location ? `, data in ${database.location}` : ''}`,
      `  chain      ${devnet ? `embedded devnet at ${devnet.url}` : fullnodeUrl}${config.grpcUrl ? ` (transactions via gRPC ${config.grpcUrl})` : ''}`,
      `  worker     ${worker.mode}${redisUrl ? ` (${redisUrl})` : ''}`,
      '',
      `  curl -H "x-api-key: ${key}" ${base}/rankings/trending-collections`,
      '',
      'Ctrl-C stops everything.',
    ].join('\n'),
  );
}
