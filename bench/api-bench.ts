/**
 * API read-path benchmark (run: `pnpm --filter @mdq/bench bench:api`; `--count N` for the chain
 * size, default 1,000,000; `--quick` for a 20,000-transaction chain and short runs; `--seconds S`
 * per measurement; `--workers N` API processes (default 1, as `mdq api` starts); `--cache-entries 0` without the response cache;
 * `--only TEXT[,TEXT…]` endpoints whose name contains one of the TEXTs; `--connections 10,50`; `--cpu-prof DIR` writes
 * the API processes' V8 CPU profiles into DIR when they stop; `--compare-tree DIR` also serves the
 * API of another checkout of mdq (a commit before a change, `git worktree add DIR <commit>` and
 * `pnpm install` there) on the same database and loads it right after this tree's, row by row). Loads every GET endpoint of the spec with autocannon
 * at 10 and 50 connections, each request drawing its parameters from a mix sampled from the
 * database (many tokens, wallets, collections, lootboxes, pages and search texts, not one hot URL).
 *
 * Baselines measured in the same run against the same database: node:http + pg answering
 * `SELECT 1` with the API's pool size, and a Fastify hello world. Each endpoint's rps is divided by
 * the `SELECT 1` rps measured right before it at the same connection count (the shared machine's
 * load drifts within a run); the targets of issue #22 are marked. A full run
 * (default size, or --write) writes the table into docs/PERFORMANCE.md.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@mdq/config';
import { createApiKey, createDb } from '@mdq/db';
import { cloneBenchDatabase } from './api-dataset';
import { asksOf, loadAsks, type Result, startServer as startBenchServer } from './api-load';
import { type Endpoint, type Group, sampleEndpoints } from './api-mix';
import { benchFlags, numberFlag } from './flags';

const values = benchFlags({
  workers: { type: 'string' },
  only: { type: 'string' },
  connections: { type: 'string' },
  'cache-entries': { type: 'string' },
  'cpu-prof': { type: 'string' },
  'compare-tree': { type: 'string' },
  live: { type: 'boolean' },
  'block-interval-ms': { type: 'string' },
});
const quick = values.quick === true;
const count = numberFlag(values, 'count', values.count, 1_000_000, 20_000);
const seconds = numberFlag(values, 'seconds', values.seconds, 8, 3);
// `mdq api`'s own default (MDQ_API_WORKERS=1). On two cores that Postgres, Redis and the load
// generator share, a second process measured slower on every cached route (docs/PERFORMANCE.md).
const workers = numberFlag(values, 'workers', values.workers, 1);
const connectionCounts = (values.connections ?? '10,50').split(',').map(Number);
// The pool `mdq api` opens here (MDQ_API_POOL_SIZE, else 2 × cores + 2, at most 20), for the API and
// its `SELECT 1` baseline alike.
const POOL = loadConfig().apiPoolSize;
if (values.live === true) {
  // Every endpoint at once on a moving chain (api-live.ts).
  const { runLiveBench } = await import('./api-live');
  await runLiveBench({
    count,
    seconds: numberFlag(values, 'seconds', values.seconds, 20, 5),
    connections: (values.connections ?? '10,100').split(',').map(Number),
    blockIntervalMs: numberFlag(values, 'block-interval-ms', values['block-interval-ms'], 500),
    write: values.write === true,
    ...(values['cpu-prof'] ? { cpuProfileDir: values['cpu-prof'] } : {}),
  });
  process.exit(0);
}
// `mdq api` with APTOS_NETWORK unset serves the local network's paths.
const NETWORK = 'local';
const here = dirname(fileURLToPath(import.meta.url));

const TARGET: Record<Group, number> = { front: 0.7, search: 0.3, other: 0.5 };
const P99_TARGET_MS = 20;

// ---------------------------------------------------------------- data set and parameter mixes
console.log(`chain: ${count.toLocaleString('en-US')} transactions`);
const database = await cloneBenchDatabase(count);
const { facts, endpoints } = await sampleEndpoints(database.url, NETWORK);
// --only a,b: the endpoints whose name contains any of the comma-separated texts.
const only = values.only?.split(',').filter((text) => text !== '');
const selected = only ? endpoints.filter((e) => only.some((text) => e.name.includes(text))) : endpoints;

// ---------------------------------------------------------------- servers
const keyDb = createDb(database.url, { max: 1 });
// Its own limit far above what one run sends: the limiter still runs, it just never says no.
const { key } = await createApiKey(keyDb, { name: 'bench', rateLimitPerMinute: 1_000_000_000 });
await keyDb.destroy();

const startServer = (
  mode: 'select1' | 'hello' | 'api',
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  benchDir?: string,
) => startBenchServer(mode, database.url, POOL, env, nodeArgs, benchDir);

const load = (
  url: string,
  paths: string[],
  connections: number,
  headers: Record<string, string> = {},
  duration = seconds,
  amount?: number,
  bodies?: string[],
): Promise<Result> =>
  loadAsks(url, asksOf({ name: url, group: 'other', paths, ...(bodies && { bodies }) }), connections, {
    headers,
    duration,
    ...(amount !== undefined && { amount }),
  });

const select1 = await startServer('select1');
const hello = await startServer('hello');
const apiEnv = {
  MDQ_API_WORKERS: String(workers),
  MDQ_RATE_LIMIT: '1000000',
  // The chain's last sale is the API's "now", as the worker's recompute took it: the devnet's blocks
  // are dated in the past, and at today's date every 24h / 7d / 30d window would be empty.
  ...(facts?.now ? { MDQ_CLOCK_AT: new Date(facts.now).toISOString() } : {}),
  ...(values['cache-entries'] !== undefined ? { MDQ_API_CACHE_ENTRIES: values['cache-entries'] } : {}),
  ...(process.env['REDIS_URL'] ? {} : { REDIS_URL: 'redis://127.0.0.1:6379' }),
};
const api = await startServer(
  'api',
  apiEnv,
  values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [],
);
const compareTree = values['compare-tree'];
const compared = compareTree ? await startServer('api', apiEnv, [], join(compareTree, 'bench')) : null;
const compareLabel = compareTree
  ? execFileSync('git', ['-C', compareTree, 'rev-parse', '--short', 'HEAD']).toString().trim()
  : '';
// Every URL of the mix once (a duration would leave the slow ones of a slow route cold).
const warm = async (url: string, endpoint: Endpoint, headers: Record<string, string> = {}) =>
  load(
    url,
    endpoint.paths,
    10,
    headers,
    1,
    (endpoint.bodies ?? endpoint.paths).length,
    endpoint.bodies,
  ).catch(() => undefined);

/** `{"data":{"one":1}}`: the select1 server's own body, the rest of its answer being headers. */
const SELECT1_BODY_BYTES = 18;
const rows: string[] = [];
const verdicts: boolean[] = [];
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const kb = (r: Result) => (r.bytes / 1000).toFixed(1);
for (const connections of connectionCounts) {
  // Each baseline on each side of the endpoints, so drift of the shared machine shows.
  const base = await load(select1.url, ['/'], connections);
  const fw = await load(hello.url, ['/'], connections);
  rows.push(
    `| **node:http + pg \`SELECT 1\`** (pool ${POOL}) | ${connections} | ${fmt(base.rps)} | ${base.p50} | ${base.p99} | ${kb(base)} | | 1.00 | | | baseline |`,
    `| **Fastify hello world** | ${connections} | ${fmt(fw.rps)} | ${fw.p50} | ${fw.p99} | ${kb(fw)} | | ${(fw.rps / base.rps).toFixed(2)} | | | |`,
  );
  console.log(rows.at(-2));
  console.log(rows.at(-1));
  for (const endpoint of selected) {
    const headers = { 'x-api-key': key };
    if (connections === connectionCounts[0]) {
      // A mix whose URLs fail is a broken benchmark, not a slow endpoint: show the first failure.
      for (let i = 0; i < 20; i++) {
        const body = endpoint.bodies?.[i];
        const path = (body === undefined ? endpoint.paths[i] : endpoint.paths[0]) as string | undefined;
        if (path === undefined) break;
        const response = await fetch(
          `${api.url}${path}`,
          body === undefined
            ? { headers }
            : { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } },
        );
        const text = await response.text();
        // A GraphQL answer reports a failed operation in its body, with a 200.
        if (response.status !== 200 || text.startsWith('{"errors"')) {
          console.log(`${endpoint.name}: ${response.status} for ${body ?? path}: ${text.slice(0, 200)}`);
          break;
        }
      }
      await warm(api.url, endpoint, headers);
      if (compared) await warm(compared.url, endpoint, headers);
    }
    // The shared machine's load drifts within a run: each endpoint is divided by a SELECT 1
    // measured right before it, at the same connection count.
    const near = await load(select1.url, ['/'], connections, {}, Math.max(2, Math.round(seconds / 2)));
    const r = await load(api.url, endpoint.paths, connections, headers, seconds, undefined, endpoint.bodies);
    // The same round trip answering as many bytes as this endpoint's mean answer: what a page of
    // that size costs with no work at all (headers included, so the totals match).
    const sameBytes = await load(
      select1.url,
      [`/?bytes=${Math.max(1, Math.round(r.bytes - (base.bytes - SELECT1_BODY_BYTES)))}`],
      connections,
      {},
      Math.max(2, Math.round(seconds / 2)),
    );
    const ratio = r.rps / near.rps;
    const target = TARGET[endpoint.group];
    const ok = ratio >= target && (connections !== 10 || r.p99 < P99_TARGET_MS) && r.errors === 0;
    if (connections === 10) verdicts.push(ok);
    const mark = `≥ ${target}${connections === 10 ? `, p99 < ${P99_TARGET_MS}` : ''}: ${ok ? 'met' : '**not met**'}`;
    rows.push(
      `| ${endpoint.name} | ${connections} | ${fmt(r.rps)} | ${r.p50} | ${r.p99} | ${kb(r)} | ${fmt(near.rps)} | ${ratio.toFixed(2)} | ${fmt(sameBytes.rps)} | ${(r.rps / sameBytes.rps).toFixed(2)} | ${mark}${r.errors ? ` (${r.errors} errors)` : ''} |`,
    );
    console.log(rows.at(-1));
    if (compared) {
      const before = await load(select1.url, ['/'], connections, {}, Math.max(2, Math.round(seconds / 2)));
      const c = await load(
        compared.url,
        endpoint.paths,
        connections,
        headers,
        seconds,
        undefined,
        endpoint.bodies,
      );
      rows.push(
        `| ${endpoint.name} at ${compareLabel} | ${connections} | ${fmt(c.rps)} | ${c.p50} | ${c.p99} | ${kb(c)} | ${fmt(before.rps)} | ${(c.rps / before.rps).toFixed(2)} | | | compared${c.errors ? ` (${c.errors} errors)` : ''} |`,
      );
      console.log(rows.at(-1));
    }
  }
}
const end = await load(select1.url, ['/'], connectionCounts[0] ?? 10);
rows.push(
  `| **\`SELECT 1\` again at the end** | ${connectionCounts[0]} | ${fmt(end.rps)} | ${end.p50} | ${end.p99} | ${kb(end)} | | | | | drift check |`,
);
await Promise.all([select1.stop(), hello.stop(), api.stop(), compared?.stop()]);
await database.drop();

const table = [
  `${count.toLocaleString('en-US')}-transaction devnet chain (${facts?.tokens.toLocaleString('en-US')} tokens, ${facts?.collections} collections, ${facts?.sales.toLocaleString('en-US')} sales); API as ${workers} process(es) (MDQ_API_WORKERS=${workers}), pool ${POOL}; autocannon ${seconds} s per row; ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| endpoint | connections | rps | p50 ms | p99 ms | kB per answer | `SELECT 1` rps just before | ÷ `SELECT 1` | `SELECT 1` answering as many bytes, rps | ÷ same bytes | target |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
  ...rows,
  '',
  `At 10 connections: ${verdicts.filter(Boolean).length} of ${verdicts.length} endpoints meet their target.`,
].join('\n');
console.log(`\n${table}`);
if (values.write === true || (!quick && !values.only && values.count === undefined)) {
  const file = join(here, '..', 'docs', 'PERFORMANCE.md');
  const doc = readFileSync(file, 'utf8');
  const start = '<!-- api-bench:start -->';
  const stop = '<!-- api-bench:end -->';
  const block = `${start}\n${table}\n${stop}`;
  const next = doc.includes(start)
    ? doc.replace(new RegExp(`${start}[\\s\\S]*${stop}`), () => block)
    : `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
  console.log('written to docs/PERFORMANCE.md');
}
process.exit(0);
