import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The one metrics registry of an mdq process. Every family is declared here, once; the API, the
 * indexer and the worker report into it, and whichever of them listens serves it (`/metrics` on
 * the API, `MDQ_METRICS_PORT` for an indexer or worker run alone). Under `mdq start` all three share
 * the process, so one scrape sees everything.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'mdq_' });

export const httpRequests = new Counter({
  name: 'mdq_http_requests_total',
  help: 'HTTP requests answered, by route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'mdq_http_request_duration_seconds',
  help: 'Time from request to response, by route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

/**
 * Answers of cached routes by route pattern: `hit` (a stored or shared answer) or `miss` (the route
 * ran). The hit ratio under a moving chain says how well the per-table read keys hold answers.
 */
/**
 * Readings of the read state (the write counters and the checkpoint) the API sent to Postgres: one
 * per event-loop turn under load when polled, one per announced change when pushed (LISTEN).
 */
export const readStateReadings = new Counter({
  name: 'mdq_api_read_state_readings_total',
  help: 'Readings of the read state (write counters, checkpoint) the API sent to the database',
  registers: [registry],
});

/**
 * Time a request waited for the read state its answer is labelled (and, cached, keyed) by, per route
 * pattern: none when a reading already heard stands for it, a round trip when one is sent for it, or
 * a wait behind the reading in flight. Beside `mdq_http_request_duration_seconds` it says how much
 * of an answer's time is the reading rather than the route.
 */
export const readStateWait = new Histogram({
  name: 'mdq_api_read_state_wait_seconds',
  help: 'Time a request waited for the read state its answer reflects, by route pattern',
  labelNames: ['route'] as const,
  buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
  registers: [registry],
});

export const responseCacheAnswers = new Counter({
  name: 'mdq_api_cache_answers_total',
  help: 'Answers of cached routes, by route pattern and result (hit or miss)',
  labelNames: ['route', 'result'] as const,
  registers: [registry],
});

/**
 * Bodies the response cache dropped to make room (its entry or byte bound, MDQ_API_CACHE_ENTRIES and
 * MDQ_API_CACHE_MB), not those replaced by a newer answer: a steady rate means the working set of
 * URLs does not fit, and each eviction is a later miss that no write caused.
 */
export const responseCacheEvictions = new Counter({
  name: 'mdq_api_cache_evictions_total',
  help: 'Bodies the response cache dropped to make room',
  registers: [registry],
});

/**
 * Requests the API refused at its door under overload (503 + retry-after), by signal: `database`
 * (the pool's queue), `event_loop` or `heap`. They never reach a route, so they are not in
 * mdq_http_requests_total.
 */
export const apiShed = new Counter({
  name: 'mdq_api_shed_total',
  help: 'Requests refused before routing under overload, by signal',
  labelNames: ['signal'] as const,
  registers: [registry],
});

/** Requests the API is working on that count against its concurrency limit (streams do not). */
export const apiInFlight = new Gauge({
  name: 'mdq_api_in_flight',
  help: 'Requests admitted and not answered yet (live feeds and exports aside)',
  registers: [registry],
});

/** The API's adaptive concurrency limit: requests past it are refused (mdq_api_shed_total{signal="concurrency"}). */
export const apiConcurrencyLimit = new Gauge({
  name: 'mdq_api_concurrency_limit',
  help: 'Requests the API admits at once, adapted to how fast it answers',
  registers: [registry],
});

export const indexerBatchDuration = new Histogram({
  name: 'mdq_indexer_batch_duration_seconds',
  help: 'Time to decode and commit one batch (rows and checkpoint in one transaction)',
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

export const indexerTransactions = new Counter({
  name: 'mdq_indexer_transactions_total',
  help: 'Chain transactions committed by the indexer',
  registers: [registry],
});

/**
 * Transactions of a type this build does not know (a new Aptos transaction kind): passed on as
 * opaque non-user transactions, never a stall. A non-zero count means mdq needs an update.
 */
export const indexerUnknownTransactions = new Counter({
  name: 'mdq_indexer_unknown_type_transactions_total',
  help: 'Transactions of a type this build does not know, indexed as opaque non-user transactions',
  labelNames: ['type'],
  registers: [registry],
});

export const indexerRows = new Counter({
  name: 'mdq_indexer_rows_written_total',
  help: 'Rows written by the indexer',
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'mdq_job_duration_seconds',
  help: 'Worker job run time, by queue and outcome',
  labelNames: ['queue', 'status'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [registry],
});

export const jobFailures = new Counter({
  name: 'mdq_job_failures_total',
  help: 'Worker job attempts that failed, by queue',
  labelNames: ['queue'] as const,
  registers: [registry],
});

/** What a pool reports: pg.Pool's own counters. */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  /** pg's Pool: `ending` from the call to end(), `ended` once its last client has closed. */
  ending?: boolean;
  ended?: boolean;
}

const pools = new Map<string, PoolCounts>();

/**
 * Pools are registered as they are created (packages/db) and dropped from the report once ending:
 * a pool being closed no longer serves, and its name goes to the pool that replaces it.
 */
export function trackPool(name: string, pool: PoolCounts): void {
  dropClosedPools();
  let unique = name;
  for (let i = 2; pools.has(unique); i++) unique = `${name}#${i}`;
  pools.set(unique, pool);
}

function dropClosedPools(): void {
  for (const [name, pool] of pools) if (pool.ending || pool.ended) pools.delete(name);
}

new Gauge({
  name: 'mdq_db_pool_connections',
  help: 'Database pool connections by state (total, idle, waiting clients)',
  labelNames: ['pool', 'state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    dropClosedPools();
    for (const [name, pool] of pools) {
      this.set({ pool: name, state: 'total' }, pool.totalCount);
      this.set({ pool: name, state: 'idle' }, pool.idleCount);
      this.set({ pool: name, state: 'waiting' }, pool.waitingCount);
    }
  },
});

export interface ChainLag {
  indexedVersion: number | null;
  tipVersion: number | null;
  lagVersions: number | null;
  lagSeconds: number | null;
}

let lagSource: (() => Promise<ChainLag>) | null = null;

/** The process that can read the checkpoint (API, indexer) says where the chain and the index stand. */
export function reportChainLag(source: () => Promise<ChainLag>): void {
  lagSource = source;
}

const lagGauges = {
  indexedVersion: 'mdq_indexer_indexed_version',
  tipVersion: 'mdq_chain_tip_version',
  lagVersions: 'mdq_indexer_lag_versions',
  lagSeconds: 'mdq_indexer_lag_seconds',
} as const;
const lagHelp: Record<keyof ChainLag, string> = {
  indexedVersion: 'Highest chain version committed by the indexer',
  tipVersion: 'Newest chain version the indexer has seen at its source',
  lagVersions: 'Versions between the chain tip and the indexed version',
  lagSeconds: 'Seconds the indexed data is behind the chain (0 when caught up)',
};
// One read serves the four gauges of a scrape.
let lagRead: Promise<ChainLag | null> | null = null;
for (const [field, name] of Object.entries(lagGauges) as [keyof ChainLag, string][]) {
  new Gauge({
    name,
    help: lagHelp[field],
    registers: [registry],
    async collect() {
      if (!lagSource) return;
      lagRead ??= lagSource()
        .catch(() => null)
        .finally(() => setTimeout(() => (lagRead = null), 50));
      const value = (await lagRead)?.[field];
      if (value === null || value === undefined) this.reset();
      else this.set(value);
    },
  });
}

export type QueueCounts = Record<string, Record<string, number>>;
let queueSource: (() => Promise<QueueCounts>) | null = null;

/** The worker (or any process holding the queues) reports their depth by state. */
export function reportQueues(source: (() => Promise<QueueCounts>) | null): void {
  queueSource = source;
}

new Gauge({
  name: 'mdq_queue_jobs',
  help: 'Jobs in each queue by state (waiting, delayed, active, failed, …)',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    if (!queueSource) return;
    const counts = await queueSource().catch(() => ({}) as QueueCounts);
    for (const [queue, states] of Object.entries(counts)) {
      for (const [state, n] of Object.entries(states)) this.set({ queue, state }, n);
    }
  },
});

/** One committed indexer batch, as the indexer's `onBatch` reports it. */
export function observeIndexerBatch(batch: { transactions: number; rows: number; durationMs: number }): void {
  indexerBatchDuration.observe(batch.durationMs / 1000);
  indexerTransactions.inc(batch.transactions);
  indexerRows.inc(batch.rows);
}
