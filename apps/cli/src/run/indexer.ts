import { type Config, loadConfig } from '@mdq/config';
import {
  type ChainSource,
  createDecoder,
  fullnodeSource,
  grpcSource,
  runIndexer,
  streamFilterFor,
  watchChainTip,
} from '@mdq/indexer';
import { bullmqNotifier, type ChangeNotifier, createRedis, dedupedRedisSink, noopNotifier } from '@mdq/jobs';
import { createFailureLog, type Logger } from '@mdq/log';
import { observeIndexerBatch } from '@mdq/telemetry';
import { resolveDatabase } from '../runtime/database';
import { UsageError } from '../runtime/fail';
import { onShutdown } from '../runtime/lifecycle';
import { componentLogger, configureLogging } from '../runtime/log';
import { serveMetricsIfAsked } from '../runtime/metrics';
import { indexerProgress } from '../runtime/progress';
import { resolveRedisUrl } from '../runtime/redis';

export interface IndexerFlags {
  from?: string;
  to?: string;
  untilCaughtUp?: boolean;
  batchSize?: string;
  sparse?: boolean;
  /** `mdq backfill`: --from/--to name a range with its own checkpoint, beside the main follower. */
  backfill?: boolean;
}

export async function runIndexerCommand(flags: IndexerFlags): Promise<void> {
  const config = loadConfig();
  configureLogging(config);
  const log = componentLogger('indexer');
  if (!config.fullnodeUrl) {
    throw new UsageError(
      'APTOS_FULLNODE_URL is not set (start a devnet with `pnpm mdq devnet`, or use `pnpm mdq start`)',
    );
  }
  // Flags are checked before anything connects, so a typo fails at once.
  const batchSize = parseVersion(flags.batchSize, '--batch-size') ?? config.indexerBatchSize;
  const range = optionalRange(flags);
  // `mdq indexer --from V` (no --to) starts the main follower at V when its checkpoint is empty,
  // like MDQ_START_VERSION; a range (--to, or `mdq backfill`) keeps a checkpoint of its own.
  const followFrom = flags.backfill !== true && range.to === undefined ? range.from : undefined;
  if (followFrom !== undefined) delete range.from;
  const startVersion = followFrom ?? config.startVersion;
  const database = await resolveDatabase(config, { mayStart: false, migrate: true });
  const redisUrl = await resolveRedisUrl(config);
  // The connection's and the queue's failures: one line per distinct failure with a count, never a
  // stack trace per reconnect attempt. Ingestion does not wait for Redis.
  const redisFailures = createFailureLog();
  const onRedisError = dedupedRedisSink(
    ({ reason, count }) =>
      log.warn({ err: reason, count }, 'Redis unreachable; collection changes wait in the outbox'),
    redisFailures,
  );
  const redis = redisUrl ? createRedis(redisUrl, onRedisError) : null;
  const notifier: ChangeNotifier = redis
    ? bullmqNotifier(redis, { prefix: config.queuePrefix, onError: onRedisError })
    : noopNotifier;
  const source = chainSourceFor(config, config.fullnodeUrl, log, {
    sparse: flags.sparse === true,
  });
  // Only the main follower speaks for the chain tip; a backfill range is beside the point.
  const tipWatcher =
    range.from === undefined && range.to === undefined ? watchChainTip(database.db, source) : null;
  const metrics = await serveMetricsIfAsked(config, database.db);
  // The run ends first (its batch in flight committed, the outbox drainer and the follower lock
  // released), then its connections close.
  let running: Promise<unknown> = Promise.resolve();
  const signal = onShutdown(
    [
      database.close,
      async () => redisFailures.close(),
      async () => metrics?.close(),
      async () => redis?.disconnect(),
      notifier.close,
      async () => tipWatcher?.stop(),
    ],
    { settle: () => running },
  );
  // Where this run is heading, for the progress bar: --to, else the tip as it stands now.
  const target =
    range.to ??
    (await source.tip().then(
      (t) => t.ledgerVersion,
      () => null,
    ));
  const progress =
    target === null
      ? null
      : indexerProgress({
          target,
          label: range.from !== undefined ? 'backfill' : 'indexer',
          tty: process.stderr.isTTY === true,
        });
  let caughtUp = false;
  const run = runIndexer({
    db: database.db,
    source,
    decode: decoderFor(config),
    notifier,
    batchSize,
    ...range,
    ...(startVersion !== undefined ? { startVersion } : {}),
    untilCaughtUp: flags.untilCaughtUp === true,
    signal,
    log,
    onBatch: (batch) => {
      observeIndexerBatch(batch);
      if (caughtUp || !progress || target === null) return;
      progress.update(batch.lastVersion, batch.transactions);
      if (batch.lastVersion >= target) {
        caughtUp = true;
        progress.stop();
        if (!flags.untilCaughtUp && range.to === undefined)
          console.error(`indexer: caught up at version ${batch.lastVersion}, following the tip`);
      }
    },
  });
  running = run;
  let stats: Awaited<typeof run>;
  try {
    stats = await run;
  } catch (error) {
    // A run stopped by a signal while it waited to retry ends with that failure: not one to report.
    if (signal.aborted) return;
    throw error;
  }
  progress?.stop();
  console.log(
    `mdq indexer: ${stats.transactions} transactions, ${stats.rows} rows in ${stats.batches} batches ` +
      `(${stats.failed} undecodable), last version ${stats.lastVersion ?? '-'}, ${stats.elapsedMs} ms`,
  );
  // Stopped by a signal: the shutdown closes the rest.
  if (signal.aborted) return;
  await tipWatcher?.stop();
  await metrics?.close();
  source.close?.();
  await notifier.close();
  redisFailures.close();
  redis?.disconnect();
  await database.close();
}

/** Chain ids of the public networks; a stream reporting another one is refused. */
const CHAIN_IDS: Partial<Record<Config['network'], number>> = { mainnet: 1, testnet: 2 };

/**
 * The indexer's chain source: the gRPC Transaction Stream when APTOS_GRPC_URL is set (the tip still
 * comes from the fullnode's ledger info, one cheap call), otherwise the fullnode REST API.
 */
export function chainSourceFor(
  config: Config,
  fullnodeUrl: string,
  log: Logger,
  options: { signal?: AbortSignal; sparse?: boolean } = {},
): ChainSource & { close?: () => void } {
  const { signal } = options;
  const chainId = CHAIN_IDS[config.network];
  // `sparse`: a recorded chain whose versions skip on purpose (see fullnodeSource).
  const rest = fullnodeSource(fullnodeUrl, {
    sparse: options.sparse === true,
    ...(config.fullnodeApiKey ? { apiKey: config.fullnodeApiKey } : {}),
    ...(chainId !== undefined ? { chainId } : {}),
  });
  if (config.grpcUrl === undefined) return rest;
  return grpcSource({
    url: config.grpcUrl,
    ...(config.grpcApiKey ? { apiKey: config.grpcApiKey } : {}),
    ...(chainId !== undefined ? { chainId } : {}),
    // The service skips what mdq does not decode; the decoder's early skip stays for servers
    // that ignore the filter.
    transactionFilter: streamFilterFor(decoderOptionsFor(config)),
    tip: rest.tip,
    log,
    ...(signal ? { signal } : {}),
  });
}

function decoderOptionsFor(config: Config) {
  return { marketplaceAddress: config.marketplaceAddress, lootboxAddress: config.lootboxAddress };
}

export function decoderFor(config: Config) {
  return createDecoder(decoderOptionsFor(config));
}

function optionalRange(flags: IndexerFlags): { from?: number; to?: number } {
  const from = parseVersion(flags.from, '--from');
  const to = parseVersion(flags.to, '--to');
  if (from !== undefined && to !== undefined && to < from)
    throw new UsageError('--to must not be below --from');
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

function parseVersion(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a non-negative integer (got "${value}")`);
  return Number(value);
}
