/**
 * Overload benchmark (issue #37; run: `pnpm --filter @mdq/bench bench:overload`, `--quick` for a
 * 20,000-transaction chain, `--connections C` what the API is loaded with first (default 20),
 * `--seconds S` per phase, `--pool N` the API's pool, MDQ_API_POOL_SIZE). `mdq api` (its own process, the response cache off so that every
 * request reads Postgres, the configuration's shedding limits) is loaded with a mix of misses by C
 * closed loops, then by 10 × C, then by C again, while one more loop asks `/health`; then by 10 × C
 * loops that wait out each refusal's `retry-after` (with jitter, as the typed client's callers and
 * gateways do) and by C once more. Each request is timed on its own, by status: the admitted
 * answers' p99, how fast refusals come, requests that time out (10 s), and whether the first
 * phase's rate is back after each overload.
 */
import { Agent, get } from 'node:http';
import { createApiKey, createDb, sql } from '@mdq/db';
import { cloneBenchDatabase } from './api-dataset';
import { startServer } from './api-load';
import { benchFlags, numberFlag } from './flags';

const values = benchFlags({ connections: { type: 'string' }, pool: { type: 'string' } });
const count = numberFlag(values, 'count', values.count, 1_000_000, 20_000);
const seconds = numberFlag(values, 'seconds', values.seconds, 20, 8);
const connections = numberFlag(values, 'connections', values.connections, 20);
const poolSize = numberFlag(values, 'pool', values.pool, 20);
const TIMEOUT_MS = 10_000;

const database = await cloneBenchDatabase(count);
const db = createDb(database.url, { max: 2 });
const { key } = await createApiKey(db, { name: 'overload-bench' });
const { rows: tokens } = await sql<{ id: string }>`
  SELECT token_data_id AS id FROM tokens ORDER BY random() LIMIT 2000`.execute(db);
const { rows: collections } = await sql<{ id: string }>`
  SELECT collection_id AS id FROM collections ORDER BY random() LIMIT 500`.execute(db);
const { rows: owners } = await sql<{ id: string }>`
  SELECT owner_address AS id FROM (SELECT DISTINCT owner_address FROM token_ownerships) o ORDER BY random() LIMIT 2000`.execute(
  db,
);
await db.destroy();
const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;
// Misses: each path asks for another token, collection or wallet (the response cache is off too).
const path = (i: number): string => {
  switch (i % 4) {
    case 0:
      return `/local/api/market/token-history-by-tokenId?tokenId=${pick(tokens, i).id}`;
    case 1:
      return `/local/api/collection-stats?collectionId=${pick(collections, i).id}&window=7d`;
    case 2:
      return `/local/api/user/inventory-history-data?address=${pick(owners, i).id}&range=7d`;
    default:
      return `/local/api/collection-history?collectionId=${pick(collections, i).id}&interval=1h`;
  }
};

const api = await startServer('api', database.url, poolSize, {
  MDQ_RATE_LIMIT: '1000000',
  MDQ_API_POOL_SIZE: String(poolSize),
  MDQ_API_CACHE_ENTRIES: '0',
});
const base = api.url;

interface Sample {
  status: number;
  ms: number;
  retryAfter: string | null;
}

// node:http with keep-alive rather than fetch: the loops share the API's two cores, and fetch
// costs the generator several times what a plain request does, time a refusal would then be
// charged for.
const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

function timed(url: string, headers: Record<string, string> = {}): Promise<Sample> {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status: number, retryAfter: string | null) =>
      resolve({ status, ms: performance.now() - started, retryAfter });
    const request = get(url, { agent, headers, timeout: TIMEOUT_MS }, (res) => {
      res.resume();
      res.on('end', () =>
        done(res.statusCode ?? 0, (res.headers['retry-after'] as string | undefined) ?? null),
      );
      res.on('error', () => done(0, null));
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => done(0, null));
  });
}

const quantile = (ms: number[], q: number) =>
  ms.length === 0
    ? null
    : Number([...ms].sort((a, b) => a - b)[Math.min(ms.length - 1, Math.floor(q * ms.length))]?.toFixed(1));

/**
 * The API's own timing of its 200s (mdq_http_request_duration_seconds, summed over routes): bucket
 * upper bound -> count. Against the loops' timing it tells where an admitted request waited: in
 * the API (routing to answer) or before it (socket, event loop, the machine's CPU).
 */
async function serverBuckets(): Promise<Map<number, number>> {
  const text = await new Promise<string>((resolve, reject) => {
    get(`${base}/metrics`, { agent }, (res) => {
      let out = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        out += chunk;
      });
      res.on('end', () => resolve(out));
    }).on('error', reject);
  });
  const buckets = new Map<number, number>();
  for (const match of text.matchAll(/^mdq_http_request_duration_seconds_bucket\{([^}]*)\} (\d+)/gm)) {
    const labels = match[1] ?? '';
    if (!labels.includes('status="200"') || labels.includes('route="/health"')) continue;
    const le = /le="([^"]+)"/.exec(labels)?.[1];
    if (le === undefined) continue;
    const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le) * 1000;
    buckets.set(bound, (buckets.get(bound) ?? 0) + Number(match[2]));
  }
  return buckets;
}

/** The bucket bound (ms) under which a quantile of the 200s between two readings fell. */
function bucketQuantile(before: Map<number, number>, after: Map<number, number>, q: number): number | null {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const total = (after.get(Number.POSITIVE_INFINITY) ?? 0) - (before.get(Number.POSITIVE_INFINITY) ?? 0);
  if (total <= 0) return null;
  for (const bound of bounds) {
    if ((after.get(bound) ?? 0) - (before.get(bound) ?? 0) >= q * total) return bound;
  }
  return null;
}

/**
 * `loops` closed loops for `seconds`, and one loop asking /health beside them. A `polite` loop
 * waits a refusal's `retry-after` times a jitter in [0.5, 1.5) before it asks again (cut at the
 * phase's end); the others ask again at once, the worst case.
 */
async function phase(name: string, loops: number, polite = false) {
  const server = await serverBuckets();
  const until = performance.now() + seconds * 1000;
  const samples: Sample[] = [];
  const health: Sample[] = [];
  let n = 0;
  const loop = async () => {
    while (performance.now() < until) {
      const sample = await timed(`${base}${path(n++)}`, { 'x-api-key': key });
      samples.push(sample);
      if (polite && sample.status === 503 && sample.retryAfter !== null) {
        const waitMs = Number(sample.retryAfter) * 1000 * (0.5 + Math.random());
        await new Promise((resolve) => setTimeout(resolve, Math.min(waitMs, until - performance.now())));
      }
    }
  };
  const healthLoop = async () => {
    while (performance.now() < until) {
      health.push(await timed(`${base}/health`));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await Promise.all([...Array.from({ length: loops }, loop), healthLoop()]);
  const ok = samples.filter((s) => s.status === 200).map((s) => s.ms);
  const refused = samples.filter((s) => s.status === 503);
  const other = samples.filter((s) => s.status !== 200 && s.status !== 503);
  const result = {
    phase: name,
    connections: loops,
    polite,
    requests: samples.length,
    ok: ok.length,
    okPerSecond: Math.round(ok.length / seconds),
    okP50Ms: quantile(ok, 0.5),
    okP99Ms: quantile(ok, 0.99),
    ...(await serverBuckets().then((after) => ({
      apiP50AtMostMs: bucketQuantile(server, after, 0.5),
      apiP99AtMostMs: bucketQuantile(server, after, 0.99),
    }))),
    refused: refused.length,
    refusedWithRetryAfter: refused.filter((s) => s.retryAfter !== null).length,
    refusedP99Ms: quantile(
      refused.map((s) => s.ms),
      0.99,
    ),
    timedOut: other.filter((s) => s.status === 0).length,
    otherStatuses: [...new Set(other.map((s) => s.status))],
    health: `${health.filter((s) => s.status === 200).length}/${health.length} answered 200`,
    healthP99Ms: quantile(
      health.map((s) => s.ms),
      0.99,
    ),
  };
  console.log(JSON.stringify(result));
  return result;
}

try {
  console.log(`chain: ${count.toLocaleString('en-US')} transactions; ${seconds} s per phase`);
  await phase('warm-up', connections);
  const before = await phase('sustained', connections);
  const overload = await phase('10x', connections * 10);
  const after = await phase('after', connections);
  const politeOverload = await phase('10x waiting retry-after', connections * 10, true);
  const politeAfter = await phase('after', connections);
  for (const [clients, load, next] of [
    ['retrying at once', overload, after],
    ['waiting retry-after', politeOverload, politeAfter],
  ] as const) {
    console.log(
      JSON.stringify({
        clients,
        admittedP99UnderOverloadMs: load.okP99Ms,
        refusedP99Ms: load.refusedP99Ms,
        everyRefusalHasRetryAfter: load.refused === load.refusedWithRetryAfter,
        timedOut: load.timedOut + next.timedOut,
        recovered: `${next.okPerSecond} answers/s after against ${before.okPerSecond} before`,
      }),
    );
  }
} finally {
  agent.destroy();
  await api.stop();
  await database.drop();
}
