import { startApi } from '@mdq/api';
import { type Config, loadConfig } from '@mdq/config';
import { highestCheckpointVersion } from '@mdq/db';
import type { DevnetServer } from '@mdq/devnet';
import { FatalSourceError, runIndexer, watchChainTip } from '@mdq/indexer';
import { observeIndexerBatch } from '@mdq/telemetry';
import { resolveCollectionUri, startWorker } from '@mdq/worker';
import { resolveDatabase } from '../runtime/database';
import { ensureDemoKey } from '../runtime/demo-key';
import { startEmbeddedDevnet } from '../runtime/devnet';
import { describeFailure, exitCodeFor } from '../runtime/fail';
import { gateways } from '../runtime/gateways';
import { claimSignals, onShutdown, shutDownWith } from '../runtime/lifecycle';
import { componentLogger, configureLogging } from '../runtime/log';
import { mediaRendererFor } from '../runtime/media';
import { resolveRedisUrl } from '../runtime/redis';
import { webhookSettings } from '../runtime/webhook-settings';
import { chainSourceFor, decoderFor } from './indexer';

/**
 * `mdq start`: everything in one process tree, stopped in reverse order on Ctrl-C / SIGTERM. A
 * signal during start-up lets start-up stop at its next step before anything is closed.
 */
export async function runStart(): Promise<void> {
  const config = loadConfig();
  configureLogging(config);
  const closers: (() => Promise<void>)[] = [];
  let starting: Promise<void> = Promise.resolve();
  const signal = onShutdown(closers, { settle: () => starting });
  starting = startAll(config, closers, signal);
  try {
    await starting;
  } catch (error) {
    // Stopped by a signal: the shutdown closes what was started.
    if (signal.aborted) return;
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
  // From here on Ctrl-C is ours: nothing else may stop the database under the others.
  claimSignals();
  if (signal.aborted) return;
  const key = await ensureDemoKey(config, database.db);

  let devnet: DevnetServer | null = null;
  let fullnodeUrl = config.fullnodeUrl;
  if (!fullnodeUrl) {
    devnet = await startEmbeddedDevnet(config, {
      nowMs: Date.now(),
      lastIndexedVersion: await highestCheckpointVersion(database.db),
    });
    closers.push(devnet.close);
    fullnodeUrl = devnet.url;
  }
  if (signal.aborted) return;

  const redisUrl = await resolveRedisUrl(config);
  // One renderer and cache for the API's media route and the worker's pre-rendering.
  const fetching = gateways(config, devnet?.origin);
  const media = await mediaRendererFor(config, database.db, devnet?.origin);
  const worker = await startWorker({
    db: database.db,
    redisUrl,
    prefix: config.queuePrefix,
    uri: fetching,
    webhooks: webhookSettings(config),
    retention: config.retention,
    media,
  });
  closers.push(worker.close);
  if (signal.aborted) return;

  const indexerLog = componentLogger('indexer');
  const source = chainSourceFor(config, fullnodeUrl, indexerLog, { signal });
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
    log: indexerLog,
    onBatch: observeIndexerBatch,
  });
  closers.push(async () => {
    await indexing.catch(() => undefined);
  });
  indexing.catch((error: unknown) => {
    // A run ended by Ctrl-C is the shutdown's business, not a failure to report.
    if (signal.aborted) return;
    if (error instanceof FatalSourceError) {
      // The chain source cannot be used as configured: one line naming the fix, a non-zero exit.
      console.error(describeFailure(error));
      shutDownWith(exitCodeFor(error));
      return;
    }
    console.error(`mdq: the indexer stopped: ${error instanceof Error ? error.message : String(error)}`);
    process.kill(process.pid, 'SIGTERM');
  });

  const api = await startApi(
    {
      ...config,
      logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel,
      // The indexer, worker and devnet share this process's event loop: its delay measures their
      // batches, not the API's load, so it sheds nothing here (the pool and heap limits still do).
      overload: { ...config.overload, maxEventLoopDelayMs: 0 },
    },
    database.url,
    {
      resolveCollectionUri: (id) => resolveCollectionUri(database.db, id, fetching),
      requestMetadataCrawl: worker.requestMetadataCrawl,
      redisUrl,
      media,
    },
  );
  closers.push(api.close);
  if (signal.aborted) return;

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
