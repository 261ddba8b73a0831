/**
 * `bench:api --live` (issue #35): the API as a marketplace meets it — every endpoint at once, many
 * different URLs, while the chain moves. The API bench's chain database (a copy) is followed by
 * `mdq indexer` from a devnet that serves the same chain and grows a block of 10 transactions every
 * `--block-interval-ms` (default 500), with `mdq worker` keeping the aggregates fresh, each its own
 * process. The load is one sequence of requests over every endpoint's mix (api-mix.ts), each drawn
 * with a skew a marketplace's traffic has: front-page endpoints three times as often, and within an
 * endpoint's 400 URLs the first ones most (index 400·u³). Per connection count: rps, p50, p99,
 * non-2xx, next to `SELECT 1` measured right before it, the versions indexed meanwhile, the
 * response cache's hit ratio (`mdq_api_cache_answers_total`) and the refusals by signal. A last
 * pass at 10 connections reads every answer's headers: the hit ratio per route, and the ratio one
 * global version would have had on the same answers (a hit only when nothing at all was indexed
 * since the URL's previous answer; its cache never full and rankings writes not counted, so it is
 * the better case of that scheme).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@mdq/config';
import { createApiKey, createDb, MAIN_CHECKPOINT, readCheckpoint, sql } from '@mdq/db';
import { metricValues, scrape, spawnGrowingDevnet, spawnMdq, until, untilRunning } from '@mdq/faults';
import { cloneBenchDatabase } from './api-dataset';
import { type Ask, asksOf, loadAsks, type Result, startServer } from './api-load';
import { type Endpoint, sampleEndpoints } from './api-mix';
import { cpuShares, readCpu } from './cpu-shares';
import { BENCH_DEVNET_ORIGIN, BENCH_DEVNET_PORT } from './devnet-process';
import { serverSettings } from './server-stats';

export interface LiveBenchOptions {
  count: number;
  seconds: number;
  connections: number[];
  blockIntervalMs: number;
  /** Writes the table into docs/PERFORMANCE.md. */
  write: boolean;
  /** The API process's CPU profile (`--cpu-prof`), written here as it ends. */
  cpuProfileDir?: string;
}

// The pool `mdq api` opens here (MDQ_API_POOL_SIZE, else 2 × cores + 2, at most 20), for the API and
// its `SELECT 1` baseline alike.
const POOL = loadConfig().apiPoolSize;
const NETWORK = 'local';
const SEQUENCE = 60_000;
const here = dirname(fileURLToPath(import.meta.url));

export async function runLiveBench(options: LiveBenchOptions): Promise<void> {
  console.log(
    `chain: ${options.count.toLocaleString('en-US')} transactions, then a block every ${options.blockIntervalMs} ms`,
  );
  const database = await cloneBenchDatabase(options.count);
  const { facts, endpoints } = await sampleEndpoints(database.url, NETWORK);
  const sequence = skewedSequence(endpoints, SEQUENCE);
  console.log(
    `${sequence.length.toLocaleString('en-US')} requests over ${new Set(sequence.map(askKey)).size.toLocaleString('en-US')} distinct ones, ${endpoints.length} endpoints`,
  );
  // One connection of the bench's own: the key, then the indexer's checkpoint as the chain moves.
  const db = createDb(database.url, { max: 1 });
  // A template built before its chain's documents were crawled where the live devnet serves them
  // would measure a worker crawling the whole chain into refused fetches (bench/README.md).
  const crawled = await sql<{ ok: boolean }>`
    SELECT EXISTS (SELECT 1 FROM metadata_documents WHERE uri LIKE ${`${BENCH_DEVNET_ORIGIN}/%`}) AS ok`.execute(
    db,
  );
  if (!crawled.rows[0]?.ok) {
    await db.destroy();
    await database.drop();
    throw new Error(
      `the template mdq_bench_api_${options.count} holds no document crawled at ${BENCH_DEVNET_ORIGIN}: drop it and bench/.out/api-chain-${options.count}.dump, and run again to rebuild it`,
    );
  }
  const { key } = await createApiKey(db, { name: 'bench', rateLimitPerMinute: 1_000_000_000 });
  const headers = { 'x-api-key': key };
  const indexedVersion = async () => (await readCheckpoint(db, MAIN_CHECKPOINT)) ?? -1;
  /** Each table's write counter (statements that wrote it), summed over the writers. */
  const tableWrites = async () => {
    const { rows } = await sql<{ source: string; n: string }>`
      SELECT source, sum(version)::text AS n FROM read_versions GROUP BY source`.execute(db);
    return new Map(rows.map((r) => [r.source, Number(r.n)]));
  };

  // The chain the database holds, served again and growing (the same generator, seed and size).
  // Where the template's devnet listened: the documents its tokens name are served there again.
  const grown = spawnGrowingDevnet(
    { transactions: options.count, blockIntervalMs: options.blockIntervalMs, liveBlockSize: 10 },
    ['--port', String(BENCH_DEVNET_PORT)],
  );
  const devnet = grown.process;
  const processes = [devnet];
  const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
  const prefix = `mdq-live-${randomBytes(4).toString('hex')}`;
  const rows: string[] = [];
  let settings = '';
  try {
    settings = await serverSettings(db);
    const devnetUrl = await grown.url;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      APTOS_NETWORK: NETWORK,
      APTOS_FULLNODE_URL: devnetUrl,
      MDQ_QUEUE_PREFIX: prefix,
      // The devnet's loopback origin, which the fetchers' SSRF guard refuses otherwise (as `mdq start` trusts its own).
      MDQ_TRUSTED_ORIGINS: BENCH_DEVNET_ORIGIN,
    };
    const indexer = spawnMdq('indexer', ['indexer'], env);
    const worker = spawnMdq('worker', ['worker'], env);
    processes.push(indexer, worker);
    await untilRunning(worker, 'mdq worker running');
    const atStart = await indexedVersion();
    await until(
      'the indexer to follow the growing chain',
      async () => (await indexedVersion()) > atStart,
      300_000,
    );

    const select1 = await startServer('select1', database.url, POOL);
    const api = await startServer(
      'api',
      database.url,
      POOL,
      {
        MDQ_API_WORKERS: '1',
        MDQ_RATE_LIMIT: '1000000',
        REDIS_URL: redisUrl,
        // The chain's last sale is the API's "now", as in the per-endpoint bench.
        ...(facts?.now ? { MDQ_CLOCK_AT: new Date(facts.now).toISOString() } : {}),
      },
      options.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir] : [],
    );
    try {
      // A mix whose URLs fail is a broken benchmark: every distinct request once, failures named.
      const distinct = [...new Map(sequence.map((a) => [askKey(a), a])).values()];
      const failures = new Map<string, number>();
      const shedBefore = shedCounts(await scrape(`${api.url}/metrics`));
      // What every distinct answer weighs together: the cache's working set, against its bounds.
      let bodyBytes = 0;
      await loadAsks(api.url, distinct, 10, {
        headers,
        amount: distinct.length,
        onResponse: (ask, status, _headers, length) => {
          bodyBytes += length;
          if (status === 200) return;
          const what = `${status} ${ask.path.split('?')[0]}`;
          failures.set(what, (failures.get(what) ?? 0) + 1);
        },
      });
      console.log(
        `warm-up: ${distinct.length.toLocaleString('en-US')} distinct answers, ${(bodyBytes / 2 ** 20).toFixed(1)} MiB of bodies`,
      );
      for (const [what, n] of failures) console.log(`warm-up: ${n} × ${what}`);
      for (const [signal, n] of shedCounts(await scrape(`${api.url}/metrics`))) {
        const during = n - (shedBefore.get(signal) ?? 0);
        if (during > 0) console.log(`warm-up: ${during} shed by ${signal}`);
      }

      const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
      rows.push(
        '| load | connections | rps | p50 ms | p99 ms | non-2xx and errors | ÷ `SELECT 1` | cache hit ratio | versions indexed meanwhile |',
        '|---|---|---|---|---|---|---|---|---|',
      );
      const cpu = () =>
        readCpu(
          db,
          new URL(database.url).pathname.slice(1),
          { api: api.pid, indexer: indexer.child.pid, worker: worker.child.pid, devnet: devnet.child.pid },
          'load generator',
        );
      for (const connections of options.connections) {
        const base = await loadAsks(select1.url, [{ path: '/' }], connections, {
          duration: Math.max(3, Math.round(options.seconds / 2)),
        });
        const beforeMetrics = await scrape(`${api.url}/metrics`);
        const writesBefore = await tableWrites();
        const before = {
          version: await indexedVersion(),
          cache: cacheCounts(beforeMetrics),
          shed: shedCounts(beforeMetrics),
        };
        const cpuBefore = await cpu();
        const r: Result = await loadAsks(api.url, sequence, connections, {
          headers,
          duration: options.seconds,
        });
        console.log(`${connections} connections, ${cpuShares(cpuBefore, await cpu())}`);
        const afterMetrics = await scrape(`${api.url}/metrics`);
        const after = {
          version: await indexedVersion(),
          cache: cacheCounts(afterMetrics),
          shed: shedCounts(afterMetrics),
        };
        // Which tables the moving chain wrote meanwhile (statements per second): what retires the
        // answers keyed on their global counters.
        const writesAfter = await tableWrites();
        const written = [...writesAfter]
          .map(([table, n]) => [table, (n - (writesBefore.get(table) ?? 0)) / options.seconds] as const)
          .filter(([, perSecond]) => perSecond > 0)
          .sort((a, b) => b[1] - a[1]);
        console.log(
          `${connections} connections, writes per second: ${written.map(([t, n]) => `${t} ${n.toFixed(1)}`).join(', ')}`,
        );
        // Readings of the read state the API sent (one per announced change at best; a request
        // about a collection, token or wallet the last reading did not resolve asks for its own).
        const readings = sumOf(afterMetrics, READINGS) - sumOf(beforeMetrics, READINGS);
        console.log(
          `${connections} connections: ${(readings / options.seconds).toFixed(1)} read-state readings per second`,
        );
        const hits = after.cache.hit - before.cache.hit;
        const misses = after.cache.miss - before.cache.miss;
        // Misses no write caused: bodies dropped for room (the cache's bounds against the working set).
        const evicted = sumOf(afterMetrics, EVICTIONS) - sumOf(beforeMetrics, EVICTIONS);
        console.log(`${connections} connections: ${evicted} bodies evicted for room, ${misses} misses`);
        // Refusals by the signal that made them (load-shedding.ts), so a non-2xx count says why.
        for (const [signal, n] of after.shed) {
          const during = n - (before.shed.get(signal) ?? 0);
          if (during > 0) console.log(`${connections} connections: ${during} shed by ${signal}`);
        }
        rows.push(
          `| \`SELECT 1\` (node:http + pg, pool ${POOL}) | ${connections} | ${fmt(base.rps)} | ${base.p50} | ${base.p99} | ${base.errors} | 1.00 | | |`,
          `| **the live mix** | ${connections} | ${fmt(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors} | ${(r.rps / base.rps).toFixed(2)} | ${ratio(hits, misses)} | ${fmt(after.version - before.version)} |`,
        );
        console.log(rows.at(-2));
        console.log(rows.at(-1));
      }
      const accounting = await hitAccounting(api.url, sequence, headers, options.seconds);
      for (const line of accounting.perRoute) console.log(line);
      rows.push('', accounting.summary);
    } finally {
      await Promise.all([select1.stop(), api.stop()]);
    }
  } finally {
    await Promise.all(processes.reverse().map((p) => p.stop()));
    await db.destroy();
    await database.drop();
  }
  const table = [
    `${options.count.toLocaleString('en-US')}-transaction devnet chain growing a block of 10 every ${options.blockIntervalMs} ms (\`mdq indexer\` and \`mdq worker\` following it), ${facts?.tokens.toLocaleString('en-US')} tokens, ${facts?.collections} collections; one API process, pool ${POOL}; Postgres ${settings}; ${SEQUENCE.toLocaleString('en-US')} skewed requests over every endpoint, autocannon ${options.seconds} s per row; ${new Date().toISOString().slice(0, 10)}.`,
    '',
    ...rows,
  ].join('\n');
  console.log(`\n${table}`);
  if (options.write) {
    const file = join(here, '..', 'docs', 'PERFORMANCE.md');
    const start = '<!-- api-live:start -->';
    const stop = '<!-- api-live:end -->';
    const doc = readFileSync(file, 'utf8');
    const block = `${start}\n${table}\n${stop}`;
    writeFileSync(
      file,
      doc.includes(start)
        ? doc.replace(new RegExp(`${start}[\\s\\S]*${stop}`), () => block)
        : `${doc.trimEnd()}\n\n${block}\n`,
    );
    console.log('written to docs/PERFORMANCE.md');
  }
}

const askKey = (ask: Ask) => `${ask.path}\n${ask.body ?? ''}`;

/**
 * `length` requests over every endpoint's mix, drawn with a fixed seed: an endpoint (front-page
 * ones three times as often), then one of its requests, the first ones most (index n·u³).
 */
function skewedSequence(endpoints: readonly Endpoint[], length: number): Ask[] {
  let seed = 0x2545f491;
  const random = () => {
    // xorshift32: the same sequence every run.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 0x1_0000_0000;
  };
  const weighted = endpoints.flatMap((e) => (e.group === 'front' ? [e, e, e] : [e]));
  return Array.from({ length }, () => {
    const asks = asksOf(weighted[Math.floor(random() * weighted.length)] as Endpoint);
    return asks[Math.floor(random() ** 3 * asks.length)] as Ask;
  });
}

const READINGS = 'mdq_api_read_state_readings_total';
const EVICTIONS = 'mdq_api_cache_evictions_total';

/** The sum of a metric's series. */
function sumOf(metrics: string, name: string): number {
  return [...metricValues(metrics, name).values()].reduce((sum, n) => sum + n, 0);
}

function cacheCounts(metrics: string): { hit: number; miss: number } {
  const counts = { hit: 0, miss: 0 };
  for (const [labels, n] of metricValues(metrics, 'mdq_api_cache_answers_total')) {
    if (labels.includes('result="hit"')) counts.hit += n;
    else if (labels.includes('result="miss"')) counts.miss += n;
  }
  return counts;
}

/** `mdq_api_shed_total` by its `signal` label. */
function shedCounts(metrics: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [labels, n] of metricValues(metrics, 'mdq_api_shed_total')) {
    const signal = /signal="([^"]*)"/.exec(labels)?.[1] ?? 'unknown';
    counts.set(signal, (counts.get(signal) ?? 0) + n);
  }
  return counts;
}

/**
 * Seconds spent answering and answers, per route pattern (`mdq_http_request_duration_seconds`), and
 * of those seconds the ones spent waiting for the read state (`mdq_api_read_state_wait_seconds`).
 */
function serverTime(metrics: string): Map<string, { seconds: number; answers: number; waiting: number }> {
  const out = new Map<string, { seconds: number; answers: number; waiting: number }>();
  const add = (name: string, field: 'seconds' | 'answers' | 'waiting') => {
    for (const [labels, n] of metricValues(metrics, name)) {
      const route = /route="([^"]*)"/.exec(labels)?.[1] ?? 'unmatched';
      const of = out.get(route) ?? { seconds: 0, answers: 0, waiting: 0 };
      of[field] += n;
      out.set(route, of);
    }
  };
  add('mdq_http_request_duration_seconds_sum', 'seconds');
  add('mdq_http_request_duration_seconds_count', 'answers');
  add('mdq_api_read_state_wait_seconds_sum', 'waiting');
  return out;
}

const ratio = (hits: number, misses: number) =>
  hits + misses === 0 ? '–' : `${((100 * hits) / (hits + misses)).toFixed(1)} %`;

/**
 * Every answer's headers for `seconds` at 10 connections: the hit ratio of the per-table keys per
 * route (`x-mdq-cache`), and what one global version would have given the same answers: a hit only
 * when the URL's previous answer was at the same indexed version (`x-mdq-indexed-version`).
 */
async function hitAccounting(
  url: string,
  sequence: readonly Ask[],
  headers: Record<string, string>,
  seconds: number,
): Promise<{ perRoute: string[]; summary: string }> {
  const perRoute = new Map<string, { hit: number; miss: number; globalHit: number }>();
  const lastVersion = new Map<string, string>();
  // Misses whose URL was answered within the last second: what serving the previous body for up to
  // a second (stale-while-revalidate) could have answered.
  const lastAnswered = new Map<string, number>();
  let recentMisses = 0;
  const timeBefore = serverTime(await scrape(`${url}/metrics`));
  await loadAsks(url, sequence, 10, {
    headers,
    duration: seconds,
    onResponse: (ask, status, answer) => {
      const cache = answer['x-mdq-cache'];
      const version = answer['x-mdq-indexed-version'];
      if (status !== 200 || typeof cache !== 'string' || typeof version !== 'string') return;
      const route = (ask.path.split('?')[0] ?? '').replace(`/${NETWORK}/api`, '');
      const counts = perRoute.get(route) ?? { hit: 0, miss: 0, globalHit: 0 };
      const k = askKey(ask);
      const now = performance.now();
      if (cache === 'hit') counts.hit += 1;
      else {
        counts.miss += 1;
        if (now - (lastAnswered.get(k) ?? -Infinity) < 1000) recentMisses += 1;
      }
      lastAnswered.set(k, now);
      if (lastVersion.get(k) === version) counts.globalHit += 1;
      lastVersion.set(k, version);
      perRoute.set(route, counts);
    },
  });
  const timeAfter = serverTime(await scrape(`${url}/metrics`));
  const spent = new Map<string, { seconds: number; answers: number; waiting: number }>();
  for (const [route, after] of timeAfter) {
    const before = timeBefore.get(route) ?? { seconds: 0, answers: 0, waiting: 0 };
    spent.set(route, {
      seconds: after.seconds - before.seconds,
      answers: after.answers - before.answers,
      waiting: after.waiting - before.waiting,
    });
  }
  const allSeconds = [...spent.values()].reduce((sum, s) => sum + s.seconds, 0);
  const total = { hit: 0, miss: 0, globalHit: 0 };
  const lines = [
    '| cached route | answers | hit ratio, per-table keys | hit ratio, one global version (at best) |',
    '|---|---|---|---|',
  ];
  for (const [route, c] of [...perRoute].sort((a, b) => b[1].hit + b[1].miss - (a[1].hit + a[1].miss))) {
    total.hit += c.hit;
    total.miss += c.miss;
    total.globalHit += c.globalHit;
    const n = c.hit + c.miss;
    lines.push(`| ${route} | ${n} | ${ratio(c.hit, c.miss)} | ${ratio(c.globalHit, n - c.globalHit)} |`);
  }
  const n = total.hit + total.miss;
  lines.push(
    `| **all cached routes** | ${n} | ${ratio(total.hit, total.miss)} | ${ratio(total.globalHit, n - total.globalHit)} |`,
  );
  // Where the server's time went (request to response, every route, cached or not): what to take out first.
  lines.push(
    '',
    "| route | answers | mean ms | of which waiting for the read state, ms | share of the server's time |",
    '|---|---|---|---|---|',
  );
  for (const [route, s] of [...spent].sort((a, b) => b[1].seconds - a[1].seconds)) {
    if (s.answers === 0) continue;
    const ms = (seconds: number) => ((1000 * seconds) / s.answers).toFixed(1);
    lines.push(
      `| ${route} | ${s.answers} | ${ms(s.seconds)} | ${ms(s.waiting)} | ${((100 * s.seconds) / allSeconds).toFixed(1)} % |`,
    );
  }
  const summary = `Hit ratio of the cached routes over ${n.toLocaleString('en-US')} answers at 10 connections: **${ratio(total.hit, total.miss)}** with the per-table keys, against ${ratio(total.globalHit, n - total.globalHit)} that one global version would have had at best on the same answers (\`bench:api --live\` prints each route's). Of the ${total.miss.toLocaleString('en-US')} misses, ${recentMisses.toLocaleString('en-US')} came within a second of their URL's previous answer.`;
  return { perRoute: lines, summary };
}
