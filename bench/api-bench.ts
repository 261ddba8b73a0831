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
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiKey, createDb } from '@mdq/db';
import autocannon from 'autocannon';
import pg from 'pg';
import { cloneBenchDatabase } from './api-dataset';
import { benchFlags, numberFlag } from './flags';
import { recordSdkBodies } from './sdk-graphql-bodies';

const values = benchFlags({
  workers: { type: 'string' },
  only: { type: 'string' },
  connections: { type: 'string' },
  'cache-entries': { type: 'string' },
  'cpu-prof': { type: 'string' },
  'compare-tree': { type: 'string' },
});
const quick = values.quick === true;
const count = numberFlag(values, 'count', values.count, 1_000_000, 20_000);
const seconds = numberFlag(values, 'seconds', values.seconds, 8, 3);
// `mdq api`'s own default (MDQ_API_WORKERS=1). On two cores that Postgres, Redis and the load
// generator share, a second process measured slower on every cached route (docs/PERFORMANCE.md).
const workers = numberFlag(values, 'workers', values.workers, 1);
const connectionCounts = (values.connections ?? '10,50').split(',').map(Number);
const POOL = 20;
// `mdq api` with APTOS_NETWORK unset serves the local network's paths.
const NETWORK = 'local';
const here = dirname(fileURLToPath(import.meta.url));

type Group = 'front' | 'search' | 'other';
const TARGET: Record<Group, number> = { front: 0.7, search: 0.3, other: 0.5 };
const P99_TARGET_MS = 20;

interface Endpoint {
  name: string;
  group: Group;
  paths: string[];
  /** POST bodies, drawn in turn (to the first path); without them each request GETs a path. */
  bodies?: string[];
}

// ---------------------------------------------------------------- data set and parameter mixes
console.log(`chain: ${count.toLocaleString('en-US')} transactions`);
const database = await cloneBenchDatabase(count);
const client = new pg.Client({ connectionString: database.url });
await client.connect();
const q = async <T>(text: string): Promise<T[]> => (await client.query(text)).rows as T[];
const facts = (
  await q<{ tokens: number; collections: number; sales: number; now: Date }>(
    `SELECT (SELECT count(*)::int FROM tokens) AS tokens, (SELECT count(*)::int FROM collections) AS collections,
            (SELECT count(*)::int FROM marketplace_activities WHERE kind LIKE 'fill_%') AS sales,
            (SELECT max(transaction_timestamp) FROM marketplace_activities) AS now`,
  )
)[0];
console.log(`data: ${facts?.tokens} tokens, ${facts?.collections} collections, ${facts?.sales} sales`);

const tokens = await q<{
  token_data_id: string;
  token_standard: string;
  token_name: string;
  collection_name: string;
  creator_address: string;
}>(`SELECT t.token_data_id, t.token_standard, t.token_name, c.collection_name, c.creator_address
    FROM (SELECT * FROM tokens ORDER BY random() LIMIT 3000) t JOIN collections c USING (collection_id)`);
const listedTokens = await q<{ token_data_id: string; token_standard: string }>(
  `SELECT token_data_id, token_standard FROM listings WHERE token_standard IS NOT NULL ORDER BY random() LIMIT 1000`,
);
const collections = await q<{ creator_address: string; collection_name: string; collection_id: string }>(
  'SELECT creator_address, collection_name, collection_id FROM collections',
);
const owners = await q<{ owner_address: string }>(
  'SELECT owner_address FROM (SELECT DISTINCT owner_address FROM token_ownerships) o ORDER BY random() LIMIT 3000',
);
const traders = await q<{ address: string }>(
  `SELECT address FROM (SELECT DISTINCT coalesce(buyer, seller) AS address FROM marketplace_activities
   WHERE coalesce(buyer, seller) IS NOT NULL) a ORDER BY random() LIMIT 3000`,
);
const lootboxes = await q<{ lootbox_id: number; creator_address: string; collection_name: string }>(
  'SELECT lootbox_id, creator_address, collection_name FROM lootboxes',
);
await client.end();

const pick = <T>(xs: T[], i: number): T => xs[i % xs.length] as T;
const enc = encodeURIComponent;
const N = 400;
const mix = (make: (i: number) => string): string[] =>
  Array.from({ length: N }, (_, i) => `/${NETWORK}/api${make(i)}`);
// Mostly the first pages, as front ends read them; now and then a deeper one.
const page = (i: number) => (i % 10 === 9 ? 2 + (i % 7) : 1);
const wallet = (i: number) => (i % 2 === 0 ? pick(owners, i).owner_address : pick(traders, i).address);
const col = (i: number) => pick(collections, i * 7);
const pair = (i: number) => `creator=${col(i).creator_address}&collection=${enc(col(i).collection_name)}`;
const lb = (i: number) => pick(lootboxes, i);
const lbPair = (i: number) => `creator=${lb(i).creator_address}&collection=${enc(lb(i).collection_name)}`;
const tok = (i: number) => pick(tokens, i * 13);
const words = [
  ...new Set(tokens.flatMap((t) => t.token_name.split(/[^A-Za-z]+/)).filter((w) => w.length > 2)),
];
// Any text a user types: one letter, a prefix, a whole word, a word with a typo, a collection name.
const searchText = (i: number): string => {
  const w = pick(words, i * 31);
  switch (i % 5) {
    case 0:
      return String.fromCharCode(97 + (i % 26));
    case 1:
      return w.slice(0, 3);
    case 2:
      return w;
    case 3:
      return w.length > 4 ? `${w.slice(0, 2)}${w.slice(3)}` : `${w}x`;
    default:
      return col(i).collection_name.slice(0, 8);
  }
};

const endpoints: Endpoint[] = [
  {
    name: 'rankings/trending-collections',
    group: 'front',
    paths: mix((i) => `/rankings/trending-collections?page=${page(i)}&limit=${pick([10, 100, 10, 1], i)}`),
  },
  {
    name: 'rankings/daily-picks',
    group: 'front',
    paths: mix((i) => `/rankings/daily-picks?page=${page(i)}&limit=10`),
  },
  {
    name: 'rankings/top-collections',
    group: 'front',
    paths: mix((i) => `/rankings/top-collections?page=${page(i)}&limit=10`),
  },
  {
    name: 'rankings/recent-added',
    group: 'front',
    paths: mix((i) => `/rankings/recent-added?page=${page(i)}&limit=10`),
  },
  {
    name: 'rankings/by-upcoming',
    group: 'front',
    paths: mix((i) => `/rankings/by-upcoming?page=${page(i)}&limit=10`),
  },
  {
    name: 'market/listing-cards',
    group: 'front',
    paths: mix((i) => {
      const filters = [
        '',
        '&byPopular=true',
        `&collectionName=${enc(col(i).collection_name)}&creatorAddress=${col(i).creator_address}`,
        `&minPrice=${10 ** (5 + (i % 4))}`,
        `&search=${enc(searchText(i))}`,
      ];
      return `/market/listing-cards?page=${page(i)}&limit=20${pick(filters, i)}`;
    }),
  },
  {
    name: 'market/total-listing-cards',
    group: 'front',
    paths: mix((i) => {
      const filters = [
        '',
        `collectionName=${enc(col(i).collection_name)}&creatorAddress=${col(i).creator_address}`,
        `minPrice=${10 ** (5 + (i % 4))}`,
        `search=${enc(searchText(i))}`,
      ];
      return `/market/total-listing-cards?${pick(filters, i)}`;
    }),
  },
  {
    name: 'market/listing-card',
    group: 'front',
    paths: mix((i) => {
      const t = i % 2 === 0 ? pick(listedTokens, i) : tok(i);
      return `/market/listing-card?tokenId=${t.token_data_id}&tokenStandard=${t.token_standard}`;
    }),
  },
  {
    name: 'token-balances',
    group: 'front',
    paths: mix(
      (i) => `/token-balances?address=${wallet(i)}&page=${page(i)}${i % 3 === 0 ? '&serviceInfo=true' : ''}`,
    ),
  },
  {
    name: 'tokens-by-collection',
    group: 'front',
    paths: mix((i) => `/tokens-by-collection?${pair(i)}&page=${page(i)}`),
  },
  { name: 'market/search', group: 'search', paths: mix((i) => `/market/search?text=${enc(searchText(i))}`) },
  {
    name: 'market/listings-by-collection',
    group: 'other',
    paths: mix((i) => `/market/listings-by-collection?${pair(i)}&page=${page(i)}`),
  },
  {
    name: 'market/bids-by-collection',
    group: 'other',
    paths: mix((i) => `/market/bids-by-collection?${pair(i)}&page=${page(i)}`),
  },
  {
    name: 'market/user-activity',
    group: 'other',
    paths: mix((i) => `/market/user-activity?address=${wallet(i)}&page=${page(i)}`),
  },
  {
    name: 'market/user-listings',
    group: 'other',
    paths: mix((i) => `/market/user-listings?address=${wallet(i)}`),
  },
  { name: 'market/user-bids', group: 'other', paths: mix((i) => `/market/user-bids?address=${wallet(i)}`) },
  {
    name: 'market/user-history',
    group: 'other',
    paths: mix((i) => `/market/user-history?address=${wallet(i)}`),
  },
  {
    name: 'market/token-history-by-tokenId',
    group: 'other',
    paths: mix((i) => `/market/token-history-by-tokenId?tokenId=${tok(i).token_data_id}`),
  },
  {
    name: 'token/activity',
    group: 'other',
    paths: mix((i) => {
      const t = tok(i);
      return `/token/activity?creator=${t.creator_address}&collection=${enc(t.collection_name)}&tokenName=${enc(t.token_name)}`;
    }),
  },
  {
    name: 'token/traits',
    group: 'other',
    paths: mix((i) => {
      const t = tok(i);
      return `/token/traits?creator=${t.creator_address}&collection=${enc(t.collection_name)}&tokenName=${enc(t.token_name)}&tokenStandard=${t.token_standard}`;
    }),
  },
  {
    name: 'user/inventory-history-data',
    group: 'other',
    paths: mix(
      (i) =>
        `/user/inventory-history-data?address=${wallet(i)}&range=${pick(['24h', '7d', '30d', 'all'], i)}`,
    ),
  },
];
if (lootboxes.length > 0) {
  endpoints.push(
    { name: 'lootbox', group: 'other', paths: mix((i) => `/lootbox?${lbPair(i)}`) },
    {
      name: 'lootbox-revenue',
      group: 'other',
      paths: mix((i) => `/lootbox-revenue?${lbPair(i)}&timeframe=${pick(['24h', '7d', '30d', 'all'], i)}`),
    },
    {
      name: 'rarities-by-lootbox',
      group: 'other',
      paths: mix((i) => `/rarities-by-lootbox?lootboxId=${lb(i).lootbox_id}`),
    },
    {
      name: 'tokens-by-lootbox',
      group: 'other',
      paths: mix((i) => `/tokens-by-lootbox?lootboxId=${lb(i).lootbox_id}&page=${page(i)}`),
    },
    {
      name: 'tokens-by-lootbox-creator',
      group: 'other',
      paths: mix((i) => `/tokens-by-lootbox-creator?${lbPair(i)}`),
    },
    {
      name: 'token-collection-by-lootbox-creator',
      group: 'other',
      paths: mix((i) => `/token-collection-by-lootbox-creator?${lbPair(i)}`),
    },
  );
}
endpoints.push({
  name: 'rarities-by-collection',
  group: 'other',
  paths: mix((i) => `/rarities-by-collection?${pair(i)}&page=${page(i)}`),
});
// The Indexer API's GraphQL (issue #36): the five NFT queries @aptos-labs/ts-sdk sends most, as the
// SDK itself sends them (POST bodies recorded from the SDK, sdk-graphql-bodies.ts), over the
// chain's wallets, tokens and collections.
const sdkQueries = await recordSdkBodies(
  {
    wallets: Array.from({ length: N }, (_, i) => wallet(i)),
    tokenIds: tokens.map((t) => t.token_data_id),
    collections: collections.map((c) => ({ creator: c.creator_address, name: c.collection_name })),
  },
  N,
);
for (const { method, bodies } of sdkQueries) {
  endpoints.push({ name: `graphql/${method}`, group: 'other', paths: [`/${NETWORK}/v1/graphql`], bodies });
}
// --only a,b: the endpoints whose name contains any of the comma-separated texts.
const only = values.only?.split(',').filter((text) => text !== '');
const selected = only ? endpoints.filter((e) => only.some((text) => e.name.includes(text))) : endpoints;

// ---------------------------------------------------------------- servers
const keyDb = createDb(database.url, { max: 1 });
// Its own limit far above what one run sends: the limiter still runs, it just never says no.
const { key } = await createApiKey(keyDb, { name: 'bench', rateLimitPerMinute: 1_000_000_000 });
await keyDb.destroy();

async function startServer(
  mode: 'select1' | 'hello' | 'api',
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  benchDir = here,
) {
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', join(benchDir, 'api-servers.ts'), mode, database.url, String(POOL)],
    {
      // From the checkout's own bench folder, so that its own packages answer.
      cwd: benchDir,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`${mode} server exited (${code}): ${out}`)));
  });
  // Waits for the exit: a CPU profile is written as the process ends.
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Mean response size (headers and body): a large page costs its bytes in every layer. */
  bytes: number;
}

async function load(
  url: string,
  paths: string[],
  connections: number,
  headers: Record<string, string> = {},
  duration = seconds,
  amount?: number,
  bodies?: string[],
): Promise<Result> {
  let n = 0;
  const result = await autocannon({
    url,
    connections,
    // A number of requests, when given, instead of a duration.
    ...(amount === undefined ? { duration } : { amount }),
    headers: bodies ? { ...headers, 'content-type': 'application/json' } : headers,
    requests: [
      {
        setupRequest: (request) =>
          bodies
            ? {
                ...request,
                method: 'POST',
                path: paths[0] as string,
                body: bodies[n++ % bodies.length] as string,
              }
            : { ...request, path: paths[n++ % paths.length] as string },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    bytes: result.throughput.total / Math.max(1, result.requests.total),
  };
}

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
