/**
 * The soak run (issue #37; `pnpm --filter @mdq/bench bench:soak --minutes N`, `--quick` for 3
 * minutes): mdq as deployed — `mdq devnet` growing a block of 10 user transactions every
 * `--block-interval-ms` (500), `mdq indexer`, `mdq worker`, `mdq api` — each its own process on a
 * database of its own and a private redis-server, under `--connections` (8) closed read loops over
 * thousands of distinct URLs and `--feed-clients` (100) live-feed SSE streams, sampled every
 * `--sample-seconds` (10). Writes the samples
 * (bench/.out/soak-<time>.json and .csv) and an SVG of them (with `--write`: docs/soak.svg), prints
 * a verdict per series (soak-verdict.ts: flat or growing, and why), and each table's bytes per
 * million chain transactions with a projection per day at `--mainnet-per-day` transactions.
 * `--count N` sets the initial chain (default 20,000 user transactions).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb, migrateToLatest, sql } from '@mdq/db';
import {
  PROCESS_NAMES,
  runSoak,
  type SoakSample,
  startPrivatePostgres,
  startPrivateRedis,
} from '@mdq/faults';
import { benchFlags, numberFlag } from './flags';
import { soakChartSvg } from './soak-chart';
import { type Series, verdictOf } from './soak-verdict';

const values = benchFlags({
  minutes: { type: 'string' },
  'sample-seconds': { type: 'string' },
  connections: { type: 'string' },
  'feed-clients': { type: 'string' },
  'block-interval-ms': { type: 'string' },
  'mainnet-per-day': { type: 'string' },
  'autovacuum-tuning': { type: 'boolean' },
});
const minutes = numberFlag(values, 'minutes', values.minutes, 60, 3);
const sampleSeconds = numberFlag(values, 'sample-seconds', values['sample-seconds'], 10, 5);
const connections = numberFlag(values, 'connections', values.connections, 8);
const feedClients = numberFlag(values, 'feed-clients', values['feed-clients'], 100);
const blockIntervalMs = numberFlag(values, 'block-interval-ms', values['block-interval-ms'], 500);
const count = numberFlag(values, 'count', values.count, 20_000, 5_000);
// About 23 transactions a second: an ordinary mainnet day (2024–2025), well below the busiest days.
const mainnetPerDay = numberFlag(values, 'mainnet-per-day', values['mainnet-per-day'], 2_000_000);
/** docs/SCALING.md, "Postgres for a service that runs for months": the per-table autovacuum settings. */
const AUTOVACUUM_TUNING = [
  'ALTER TABLE token_ownerships SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 10000, autovacuum_analyze_scale_factor = 0.02, autovacuum_vacuum_cost_limit = 2000)',
  'ALTER TABLE listings SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 5000, autovacuum_analyze_scale_factor = 0.02)',
  'ALTER TABLE tokens SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02)',
  'ALTER TABLE token_offers SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02)',
  'ALTER TABLE collection_offers SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02)',
  'ALTER TABLE token_rarity SET (autovacuum_vacuum_scale_factor = 0.02)',
  'ALTER TABLE indexer_checkpoints SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000)',
  'ALTER TABLE chain_tip SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000)',
  'ALTER TABLE collections SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02)',
  'ALTER TABLE collection_change_outbox SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000)',
  'ALTER TABLE ranking_snapshots SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000)',
];
const here = dirname(fileURLToPath(import.meta.url));
const MB = 2 ** 20;

// A server of the run's own: autovacuum on with the defaults, as a deployment starts (the shared
// server runs the benchmarks with it off), and its WAL and memory are the soak's alone.
const [postgres, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
{
  // Migrated before the run so that --autovacuum-tuning can set the tables' storage parameters.
  const db = createDb(postgres.url, { max: 1 });
  await migrateToLatest(db);
  if (values['autovacuum-tuning'])
    for (const statement of AUTOVACUUM_TUNING) await sql.raw(statement).execute(db);
  await db.destroy();
}
console.log(
  `soak: ${values['autovacuum-tuning'] ? 'autovacuum tuned per table' : 'autovacuum defaults'}, ${minutes} min, initial chain ${count.toLocaleString('en-US')} user transactions, a block of 10 every ${blockIntervalMs} ms, ${connections} read loops, ${feedClients} live-feed clients, a sample every ${sampleSeconds} s`,
);
let samples: SoakSample[] = [];
try {
  const run = await runSoak({
    databaseUrl: postgres.url,
    redisUrl: redis.url,
    seconds: minutes * 60,
    sampleSeconds,
    initialTransactions: count,
    blockIntervalMs,
    liveBlockSize: 10,
    connections,
    feedClients,
    onSample: (s) =>
      console.log(
        `${s.t.toFixed(0).padStart(5)} s  rss ${PROCESS_NAMES.map((p) => `${p} ${mb(s.processes[p].rssBytes)}`).join(' ')} MB  db ${mb(s.databaseBytes)} MB  lag ${s.lagVersions} v  api ${s.api.ok} ok ${s.api.shed} shed ${s.api.errors} err p99 ${s.api.p99Ms} ms  feed ${s.feed.connected} open ${s.feed.events} events ${s.feed.reconnects} reconnects`,
      ),
  });
  samples = run.samples;
  console.log(
    JSON.stringify({
      statuses: run.statuses,
      urls: run.urls,
      tipAtEnd: run.tipAtEnd,
      indexedAtEnd: run.indexedAtEnd,
      feed: {
        clients: run.feed.clients,
        connectedAtStop: run.feed.connectedAtStop,
        closed: run.feed.closed,
        events: run.feed.perClient.reduce((n, c) => n + c.events, 0),
        fewestEventsPerClient: Math.min(...run.feed.perClient.map((c) => c.events)),
        reconnects: run.feed.perClient.reduce((n, c) => n + c.reconnects, 0),
      },
      exitCodes: run.exitCodes,
    }),
  );
  if (run.feed.closed < run.feed.clients)
    console.log(`feed clients not closed within their wait: ${run.feed.clients - run.feed.closed}`);
  const devnetExit = await run.close();
  if (Object.values(run.exitCodes).some((c) => c !== 0) || devnetExit !== 0)
    console.log(`not a clean shutdown: ${JSON.stringify({ ...run.exitCodes, devnet: devnetExit })}`);
  report(samples, run.indexedAtEnd, feedClients);
} finally {
  await redis.destroy();
  await postgres.destroy();
}

function mb(bytes: number | null): string {
  return bytes === null ? '-' : (bytes / MB).toFixed(0);
}

function report(samples: readonly SoakSample[], indexed: number, feedClients: number): void {
  const mins = samples.map((s) => s.t / 60);
  const versions = samples.map((s) => s.indexedVersion);
  const nodes = ['indexer', 'worker', 'api'] as const;
  const queueNames = [...new Set(samples.flatMap((s) => Object.keys(s.queues)))].sort();
  const toMb = (v: number | null) => (v === null ? null : v / MB);
  const series: Series[] = [
    ...PROCESS_NAMES.map(
      (p): Series => ({
        name: `${p} RSS`,
        kind: 'memory',
        unit: 'MB',
        floor: 4,
        values: samples.map((s) => toMb(s.processes[p].rssBytes)),
      }),
    ),
    ...nodes.map(
      (p): Series => ({
        name: `${p} heap`,
        kind: 'heap',
        unit: 'MB',
        floor: 2,
        values: samples.map((s) => toMb(s.processes[p].heapUsedBytes)),
      }),
    ),
    ...PROCESS_NAMES.map(
      (p): Series => ({
        name: `${p} open descriptors`,
        kind: 'memory',
        unit: '',
        floor: 4,
        values: samples.map((s) => s.processes[p].fds),
      }),
    ),
    ...nodes.map(
      (p): Series => ({
        name: `${p} event-loop p99`,
        kind: 'delay',
        unit: 'ms',
        floor: 20,
        values: samples.map((s) => s.processes[p].eventLoopP99Ms),
      }),
    ),
    {
      name: 'database connections',
      kind: 'memory',
      unit: '',
      floor: 2,
      values: samples.map((s) => s.dbConnections),
    },
    {
      name: 'Redis memory',
      kind: 'memory',
      unit: 'MB',
      floor: 1,
      values: samples.map((s) => toMb(s.redisBytes)),
    },
    {
      name: 'database size',
      kind: 'chain-bytes',
      unit: 'B',
      floor: 0,
      values: samples.map((s) => s.databaseBytes),
    },
    {
      name: 'indexer lag (versions)',
      kind: 'delay',
      unit: 'v',
      floor: 50,
      values: samples.map((s) => s.lagVersions),
    },
    {
      name: 'indexer lag (seconds)',
      kind: 'delay',
      unit: 's',
      floor: 2,
      values: samples.map((s) => s.lagSeconds),
    },
    { name: 'API p50', kind: 'delay', unit: 'ms', floor: 20, values: samples.map((s) => s.api.p50Ms) },
    { name: 'API p99', kind: 'delay', unit: 'ms', floor: 50, values: samples.map((s) => s.api.p99Ms) },
    {
      name: 'API errors (not 2xx, not shed 503)',
      kind: 'errors',
      unit: '',
      floor: 0,
      values: samples.map((s) => s.api.errors),
    },
    {
      name: 'live-feed streams open',
      kind: 'held',
      unit: '',
      floor: 0,
      target: feedClients,
      values: samples.map((s) => s.feed.connected),
    },
    {
      name: 'live-feed reconnects',
      kind: 'errors',
      unit: '',
      floor: 0,
      values: samples.map((s) => s.feed.reconnects),
    },
    ...queueNames.map(
      (q): Series => ({
        name: `queue ${q} (waiting + active)`,
        kind: 'delay',
        unit: '',
        floor: 10,
        values: samples.map((s) => s.queues[q] ?? 0),
      }),
    ),
  ];
  console.log('\n| series | verdict | detail |\n|---|---|---|');
  for (const s of series) {
    const v = verdictOf(s, mins, versions);
    console.log(`| ${v.name} | ${v.ok ? v.verdict : `**${v.verdict}**`} | ${v.detail} |`);
  }
  tableReport(samples, indexed, mins, versions);

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const out = join(here, '.out');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `soak-${stamp}.json`), `${JSON.stringify(samples, null, 1)}\n`);
  const columns: [string, (s: SoakSample) => number | null][] = [
    ['t_s', (s) => s.t],
    ...PROCESS_NAMES.flatMap((p): [string, (s: SoakSample) => number | null][] => [
      [`${p}_rss_bytes`, (s) => s.processes[p].rssBytes],
      [`${p}_heap_used_bytes`, (s) => s.processes[p].heapUsedBytes],
      [`${p}_fds`, (s) => s.processes[p].fds],
      [`${p}_event_loop_p99_ms`, (s) => s.processes[p].eventLoopP99Ms],
    ]),
    ['database_bytes', (s) => s.databaseBytes],
    ['db_connections', (s) => s.dbConnections],
    ['wal_bytes', (s) => s.walBytes],
    ['redis_bytes', (s) => s.redisBytes],
    ['tip_version', (s) => s.tipVersion],
    ['indexed_version', (s) => s.indexedVersion],
    ['lag_versions', (s) => s.lagVersions],
    ['lag_seconds', (s) => s.lagSeconds],
    ['api_requests', (s) => s.api.requests],
    ['api_ok', (s) => s.api.ok],
    ['api_shed', (s) => s.api.shed],
    ['api_errors', (s) => s.api.errors],
    ['api_p50_ms', (s) => s.api.p50Ms],
    ['api_p99_ms', (s) => s.api.p99Ms],
    ['feed_connected', (s) => s.feed.connected],
    ['feed_events', (s) => s.feed.events],
    ['feed_reconnects', (s) => s.feed.reconnects],
    ...queueNames.map((q): [string, (s: SoakSample) => number | null] => [
      `queue_${q}`,
      (s) => s.queues[q] ?? 0,
    ]),
  ];
  const csv = [
    columns.map((c) => c[0]).join(','),
    ...samples.map((s) => columns.map((c) => c[1](s) ?? '').join(',')),
  ].join('\n');
  writeFileSync(join(out, `soak-${stamp}.csv`), `${csv}\n`);
  const svg = soakChartSvg(`mdq soak: ${minutes} min, a sample every ${sampleSeconds} s`, samples);
  writeFileSync(join(out, `soak-${stamp}.svg`), svg);
  if (values.write) writeFileSync(join(here, '..', 'docs', 'soak.svg'), svg);
  console.log(`\nsamples: bench/.out/soak-${stamp}.{json,csv,svg}${values.write ? '; docs/soak.svg' : ''}`);
}

/**
 * Per table: its bytes (pg_total_relation_size) per million chain transactions (versions: user and
 * system transactions alike) two ways: the whole chain at the end (the initial chain's ingestion
 * and the worker's first recompute included), and the growth during the measured run per live
 * version, which is what a day of live chain adds (the worker's rewrites not yet vacuumed
 * included); the day is projected from the latter at --mainnet-per-day. Dead tuples at the end show
 * what autovacuum had yet to reclaim.
 */
function tableReport(
  samples: readonly SoakSample[],
  indexed: number,
  mins: readonly number[],
  versions: readonly number[],
): void {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last) return;
  const live = Math.max(1, last.indexedVersion - first.indexedVersion);
  const perMillion = (bytes: number, of: number) => ((bytes / of) * 1e6) / MB;
  console.log(
    `\n| table | MB at the end | MB per 1M tx, whole chain | MB per 1M live tx | MB per day at ${(mainnetPerDay / 1e6).toLocaleString('en-US')}M tx/day | dead rows at the end | over the run |\n|---|---|---|---|---|---|---|`,
  );
  const row = (name: string, at: (s: SoakSample) => number, extra: string, verdict: string) => {
    const growth = at(last) - at(first);
    console.log(
      `| ${name} | ${(at(last) / MB).toFixed(1)} | ${perMillion(at(last), indexed + 1).toFixed(0)} | ${perMillion(growth, live).toFixed(0)} | ${((perMillion(growth, live) * mainnetPerDay) / 1e6).toFixed(0)} | ${extra} | ${verdict} |`,
    );
  };
  const tables = Object.entries(last.tableBytes).sort((a, b) => b[1] - a[1]);
  for (const [table, bytes] of tables) {
    if (bytes < 256 * 1024) continue;
    const v = verdictOf(
      {
        name: table,
        kind: 'chain-bytes',
        unit: 'B',
        // Below 100 bytes a version a small table's growth is a page now and then: noise.
        floor: 100,
        values: samples.map((s) => s.tableBytes[table] ?? null),
      },
      mins,
      versions,
    );
    row(
      table,
      (s) => s.tableBytes[table] ?? 0,
      `${(last.deadTuples[table] ?? 0).toLocaleString('en-US')}`,
      v.verdict,
    );
  }
  row('(database)', (s) => s.databaseBytes, '', '');
  console.log(
    `${(indexed + 1).toLocaleString('en-US')} chain transactions indexed, ${live.toLocaleString('en-US')} of them live during the run; tables under 256 kB left out`,
  );
}
