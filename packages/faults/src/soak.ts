import { randomBytes } from 'node:crypto';
import { createDb, ensureApiKey } from '@mdq/db';
import { freePort } from '@mdq/embedded-postgres';
import { Redis } from 'ioredis';
import pg from 'pg';
import { type MdqProcess, sleep, spawnGrowingDevnet, spawnMdq, until, untilRunning } from './processes';
import { type FeedReading, type FeedSummary, startFeedClients } from './soak-feed';
import { type IntervalAnswers, startReadLoad } from './soak-load';
import {
  databaseReading,
  ledgerVersion,
  metricValue,
  procReading,
  queueDepths,
  redisMemory,
  scrape,
} from './soak-readings';

/**
 * The soak run (issue #37): mdq as deployed, each part its own `mdq` process — a devnet chain
 * growing a block every `blockIntervalMs`, `mdq indexer`, `mdq worker` and `mdq api` — under a
 * steady read load of many distinct URLs and `feedClients` live-feed (SSE) streams held open,
 * sampled every `sampleSeconds`. After the load (the streams closed with it) the indexer is left to
 * reach the tip the chain had when the load stopped, and the mdq processes are stopped with SIGTERM; the devnet stays up until `close()` so that a caller can read the chain
 * again (the test compares the indexed tables with a reference ingestion of the same versions).
 */
export interface SoakOptions {
  databaseUrl: string;
  redisUrl: string;
  /** Length of the measured run, after the initial chain is indexed. */
  seconds: number;
  sampleSeconds: number;
  /** Initial chain: user transactions, then growth: a block of `liveBlockSize` every `blockIntervalMs`. */
  initialTransactions: number;
  blockIntervalMs: number;
  liveBlockSize: number;
  /** Closed read loops. */
  connections: number;
  /** Live-feed clients: SSE streams on `/events/stream`, open for the whole run (default none). */
  feedClients?: number;
  /** `--facts FILE` for the devnet: the generator's account of the initial chain. */
  factsFile?: string;
  /** Waits for start-up and catch-up (a loaded 2-core machine is slow to compile and ingest). */
  startTimeoutMs?: number;
  onSample?: (sample: SoakSample) => void;
}

export type ProcessName = 'devnet' | 'indexer' | 'worker' | 'api';
export const PROCESS_NAMES: readonly ProcessName[] = ['devnet', 'indexer', 'worker', 'api'];

interface ProcessSample {
  rssBytes: number | null;
  fds: number | null;
  /** V8 heap in use (nodejs_heap_size_used_bytes); null for the devnet, which has no /metrics. */
  heapUsedBytes: number | null;
  /** Event-loop delay p99 since the previous scrape (prom-client resets it on each collect). */
  eventLoopP99Ms: number | null;
}

export interface SoakSample {
  /** Seconds since the load started. */
  t: number;
  processes: Record<ProcessName, ProcessSample>;
  databaseBytes: number;
  tableBytes: Record<string, number>;
  deadTuples: Record<string, number>;
  dbConnections: number;
  /** WAL written since the run started (the server's, so other databases' writes too). */
  walBytes: number;
  redisBytes: number;
  tipVersion: number;
  indexedVersion: number;
  lagVersions: number;
  /** The indexer's own mdq_indexer_lag_seconds (chain time between tip and indexed version). */
  lagSeconds: number | null;
  api: IntervalAnswers;
  /** The live-feed clients: streams open now, events and reconnects in the interval. */
  feed: FeedReading;
  /** Waiting + active jobs per queue. */
  queues: Record<string, number>;
}

export interface SoakResult {
  samples: SoakSample[];
  /** Whole run: requests by status. */
  statuses: Record<string, number>;
  /** Distinct URLs the load cycled through. */
  urls: number;
  /** The chain tip when the load stopped, and the checkpoint the indexer stopped at (>= it). */
  tipAtEnd: number;
  indexedAtEnd: number;
  /** The live-feed clients over the run, and how they closed (before the processes' SIGTERM). */
  feed: FeedSummary;
  /** Exit codes of the mdq processes after SIGTERM (0: a clean shutdown). */
  exitCodes: Record<'indexer' | 'worker' | 'api', number | null>;
  devnetUrl: string;
  /** Stops the devnet; its exit code. */
  close(): Promise<number | null>;
  /** The processes' last lines, for a failure's log. */
  tail(): string;
}

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const startTimeout = options.startTimeoutMs ?? 600_000;
  const processes: MdqProcess[] = [];
  const tail = () =>
    processes.map((p) => `--- ${p.name} (last lines)\n${p.lines.slice(-15).join('\n')}`).join('\n');
  const sampler = new pg.Client({ connectionString: options.databaseUrl, application_name: 'mdq-soak' });
  sampler.on('error', () => {});
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  try {
    await sampler.connect();
    const grown = spawnGrowingDevnet(
      {
        transactions: options.initialTransactions,
        blockIntervalMs: options.blockIntervalMs,
        liveBlockSize: options.liveBlockSize,
        startTimeoutMs: startTimeout,
      },
      // The chain's last initial block is now and the live blocks follow the wall clock, so the
      // indexer's lag in seconds is a real delay.
      ['--end-time', 'now', ...(options.factsFile ? ['--facts', options.factsFile] : [])],
    );
    const devnet = grown.process;
    processes.push(devnet);
    const devnetUrl = await grown.url;
    const [indexerMetrics, workerMetrics] = [await freePort(), await freePort()];
    const env = {
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      APTOS_NETWORK: 'local',
      APTOS_FULLNODE_URL: devnetUrl,
      MDQ_QUEUE_PREFIX: `mdq-soak-${randomBytes(4).toString('hex')}`,
    };
    const indexer = spawnMdq('indexer', ['indexer'], { ...env, MDQ_METRICS_PORT: String(indexerMetrics) });
    processes.push(indexer);
    // The indexer migrates the database; the others start once it has committed.
    await until(
      'the indexer to commit',
      async () => (await databaseReading(sampler)).indexedVersion >= 0,
      startTimeout,
    );
    const worker = spawnMdq('worker', ['worker'], { ...env, MDQ_METRICS_PORT: String(workerMetrics) });
    const api = spawnMdq('api', ['api'], {
      ...env,
      PORT: '0',
      MDQ_API_WORKERS: '1',
      // The load is one client: the per-key limit would turn it into 429s.
      MDQ_RATE_LIMIT: '1000000',
      // The feed clients share that key: the per-key stream limit (20) would refuse the rest.
      MDQ_FEED_MAX_STREAMS_PER_KEY: String(Math.max(20, options.feedClients ?? 0)),
    });
    processes.push(worker, api);
    await untilRunning(worker, 'mdq worker running', startTimeout);
    const base = await until(
      'mdq api to listen',
      async () => api.lines.map((l) => /mdq api listening on (\S+)/.exec(l)?.[1]).find(Boolean),
      startTimeout,
    );
    const origin = new URL(base).origin;
    // Measured from caught up: the initial chain's ingestion is a backfill, not the steady state.
    await until(
      'the indexer to catch up with the initial chain',
      async () =>
        (await databaseReading(sampler)).indexedVersion >=
        (await ledgerVersion(devnetUrl)) - 4 * (options.liveBlockSize + 2),
      startTimeout,
    );

    const key = `soak-${randomBytes(12).toString('hex')}`;
    const db = createDb(options.databaseUrl, { max: 1 });
    await ensureApiKey(db, key, 'soak');
    await db.destroy();
    const urls = await distinctUrls(sampler, base);
    const metricsUrls: Record<ProcessName, string | null> = {
      devnet: null,
      indexer: `http://127.0.0.1:${indexerMetrics}/metrics`,
      worker: `http://127.0.0.1:${workerMetrics}/metrics`,
      api: `${origin}/metrics`,
    };
    const byName: Record<ProcessName, MdqProcess> = { devnet, indexer, worker, api };

    const walStart = (await databaseReading(sampler)).walPosition;
    const load = startReadLoad(urls, { 'x-api-key': key }, options.connections);
    const feed = startFeedClients(`${base}/events/stream`, { 'x-api-key': key }, options.feedClients ?? 0);
    const started = Date.now();
    const samples: SoakSample[] = [];
    const sample = async (): Promise<SoakSample> => {
      const texts = Object.fromEntries(
        await Promise.all(
          PROCESS_NAMES.map(
            async (name) => [name, metricsUrls[name] ? await scrape(metricsUrls[name]) : ''] as const,
          ),
        ),
      ) as Record<ProcessName, string>;
      const procs = {} as Record<ProcessName, ProcessSample>;
      for (const name of PROCESS_NAMES) {
        const proc = await procReading(byName[name].child.pid ?? -1);
        const lag = metricValue(texts[name], 'mdq_nodejs_eventloop_lag_p99_seconds');
        procs[name] = {
          rssBytes: proc?.rssBytes ?? null,
          fds: proc?.fds ?? null,
          heapUsedBytes: metricValue(texts[name], 'mdq_nodejs_heap_size_used_bytes'),
          eventLoopP99Ms: lag === null ? null : Number((lag * 1000).toFixed(1)),
        };
      }
      const database = await databaseReading(sampler);
      const tip = await ledgerVersion(devnetUrl);
      return {
        t: Math.round((Date.now() - started) / 100) / 10,
        processes: procs,
        databaseBytes: database.databaseBytes,
        tableBytes: database.tableBytes,
        deadTuples: database.deadTuples,
        dbConnections: database.connections,
        walBytes: database.walPosition - walStart,
        redisBytes: await redisMemory(redis),
        tipVersion: tip,
        indexedVersion: database.indexedVersion,
        lagVersions: Math.max(0, tip - database.indexedVersion),
        lagSeconds: metricValue(texts.indexer, 'mdq_indexer_lag_seconds'),
        api: load.take(),
        feed: feed.take(),
        queues: queueDepths(texts.worker),
      };
    };
    let feedSummary: FeedSummary;
    try {
      for (let i = 1; ; i++) {
        await sleep(Math.max(0, started + i * options.sampleSeconds * 1000 - Date.now()));
        const s = await sample();
        samples.push(s);
        options.onSample?.(s);
        if (Date.now() - started >= options.seconds * 1000) break;
      }
    } finally {
      // The streams are closed by their clients, as pages closing would: the API's SIGTERM below
      // finds none open.
      [, feedSummary] = await Promise.all([load.stop(), feed.stop()]);
    }

    // Nothing lost: the tip as the load stopped must be indexed before the processes stop.
    const tipAtEnd = await ledgerVersion(devnetUrl);
    await until(
      'the indexer to reach the tip of the end of the load',
      async () => (await databaseReading(sampler)).indexedVersion >= tipAtEnd,
      startTimeout,
    );
    const exitCodes = {
      api: await api.stop(),
      worker: await worker.stop(),
      indexer: await indexer.stop(),
    };
    const indexedAtEnd = (await databaseReading(sampler)).indexedVersion;
    return {
      samples,
      statuses: load.statuses,
      urls: urls.length,
      tipAtEnd,
      indexedAtEnd,
      feed: feedSummary,
      exitCodes,
      devnetUrl,
      close: () => devnet.stop(),
      tail,
    };
  } catch (error) {
    for (const p of processes) await p.stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${tail()}`);
  } finally {
    await sampler.end().catch(() => undefined);
    redis.disconnect();
  }
}

/**
 * The URLs the load cycles through: a token's sale history, a collection's stats and floor
 * history, a wallet's inventory history, each for another token, collection or wallet of the
 * indexed chain, so that the API's response cache holds many entries and most reads go to Postgres.
 */
async function distinctUrls(client: pg.Client, base: string): Promise<string[]> {
  const ids = async (text: string) => (await client.query<{ id: string }>(text)).rows.map((r) => r.id);
  const tokens = await ids('SELECT token_data_id AS id FROM tokens ORDER BY token_data_id LIMIT 2000');
  const collections = await ids(
    'SELECT collection_id AS id FROM collections ORDER BY collection_id LIMIT 500',
  );
  const owners = await ids(
    'SELECT DISTINCT owner_address AS id FROM token_ownerships ORDER BY owner_address LIMIT 2000',
  );
  const urls: string[] = [];
  for (const id of tokens) urls.push(`${base}/market/token-history-by-tokenId?tokenId=${id}`);
  for (const id of collections)
    for (const window of ['24h', '7d', '30d'])
      urls.push(`${base}/collection-stats?collectionId=${id}&window=${window}`);
  for (const id of collections)
    for (const interval of ['1h', '1d'])
      urls.push(`${base}/collection-history?collectionId=${id}&interval=${interval}`);
  for (const id of owners)
    for (const range of ['7d', '30d'])
      urls.push(`${base}/user/inventory-history-data?address=${id}&range=${range}`);
  urls.push(`${base}/rankings/trending-collections`, `${base}/rankings/recent-added`);
  // Interleaved so every loop meets every kind of request, not a run of one endpoint.
  return urls
    .map((url, i) => ({ url, k: (i * 7919) % urls.length }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.url);
}
