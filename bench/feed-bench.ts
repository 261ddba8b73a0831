/**
 * Live feed benchmark (`pnpm --filter @mdq/bench bench:feed [--clients N] [--blocks N]`): a devnet
 * market indexed by the real indexer, streamed by the API over SSE to N concurrent clients.
 *  - replay rate: events/s delivered to N clients reading the whole history (since=earliest),
 *    next to the baseline of one client alone and of the bare database read of the same events;
 *  - end-to-end latency (p50/p99) from a devnet block being published to each client receiving its
 *    events, next to the baseline of the indexer alone (publish -> checkpoint committed).
 */
import { buildApp } from '@mdq/api';
import { createApiKey, feedIndexedVersion } from '@mdq/db';
import { FEED_START, feedEventsAfter } from '@mdq/db/feed';
import { createTestDatabase } from '@mdq/db/testing';
import { startDevnetServer } from '@mdq/devnet';
import { createDecoder, fullnodeSource, runIndexer } from '@mdq/indexer';
import { noopNotifier } from '@mdq/jobs';
import { benchFlags, numberFlag } from './flags';

const flags = benchFlags({ clients: { type: 'string' }, blocks: { type: 'string' } });
const clients = numberFlag(flags, 'clients', flags.clients, 100, 20);
const blocks = numberFlag(flags, 'blocks', flags.blocks, 40, 10);
const count = numberFlag(flags, 'count', flags.count, 5_000, 1_000);

const devnet = await startDevnetServer({ port: 0, seed: 3, transactionsCount: count, blockIntervalMs: 0 });
const test = await createTestDatabase();
const config = devnet.chain?.config;
const decode = createDecoder({
  marketplaceAddress: config?.marketplaceAddress ?? '',
  lootboxAddress: config?.lootboxAddress ?? '',
});
await runIndexer({
  db: test.db,
  source: fullnodeSource(devnet.url),
  decode,
  notifier: noopNotifier,
  batchSize: 500,
  untilCaughtUp: true,
});
const key = (await createApiKey(test.db, { name: 'bench' })).key;
const app = await buildApp({ db: test.db, network: 'local', feed: { maxConnectionsPerKey: clients + 10 } });
const base = `${await app.listen({ host: '127.0.0.1', port: 0 })}/local/api`;

const tip = (await feedIndexedVersion(test.db)) ?? 0;
let total = 0;
const dbStart = performance.now();
for (let at = FEED_START; ; ) {
  const page = await feedEventsAfter(test.db, at, tip, 1000);
  total += page.length;
  const last = page.at(-1);
  if (!last || page.length < 1000) break;
  at = last;
}
const dbMs = performance.now() - dbStart;

type Client = {
  received: number;
  arrivals: Map<number, number>;
  abort: AbortController;
  done: Promise<void>;
};
function connect(since: string, onEvent: (c: Client, version: number) => void): Client {
  const abort = new AbortController();
  const client: Client = { received: 0, arrivals: new Map(), abort, done: Promise.resolve() };
  client.done = (async () => {
    const res = await fetch(`${base}/events/stream?since=${since}`, {
      headers: { 'x-api-key': key },
      signal: abort.signal,
    });
    if (!res.body) throw new Error(`stream: ${res.status}`);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        buffer += r.value;
        for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
          const id = /^id: (\d+):/m.exec(buffer.slice(0, i));
          buffer = buffer.slice(i + 2);
          if (id) onEvent(client, Number(id[1]));
        }
      }
    } catch {
      // aborted
    }
  })();
  return client;
}
const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
};
const rate = (events: number, ms: number) =>
  `${Math.round(events / (ms / 1000)).toLocaleString('en-US')} events/s`;

async function replay(n: number): Promise<number> {
  const t0 = performance.now();
  const list = Array.from({ length: n }, () => connect('earliest', (c) => c.received++));
  await until(() => list.every((c) => c.received >= total));
  const ms = performance.now() - t0;
  for (const c of list) c.abort.abort();
  await Promise.all(list.map((c) => c.done));
  return ms;
}

console.log(`devnet ${count} transactions, ${total} feed events; ${clients} SSE clients`);
console.log(`baseline: database read of all events     ${rate(total, dbMs).padStart(18)}`);
const oneMs = await replay(1);
console.log(`baseline: 1 SSE client replaying history    ${rate(total, oneMs).padStart(18)}`);
const manyMs = await replay(clients);
console.log(
  `${clients} SSE clients replaying history (sum)  ${rate(total * clients, manyMs).padStart(18)}  (${(manyMs / 1000).toFixed(1)} s)`,
);

// Live: publish blocks one at a time, timing each version from publish to each client's receipt.
const stop = new AbortController();
const indexing = runIndexer({
  db: test.db,
  source: fullnodeSource(devnet.url),
  decode,
  notifier: noopNotifier,
  batchSize: 500,
  pollMs: 20,
  maxPollMs: 20,
  signal: stop.signal,
}).catch(() => {});
const published = new Map<number, number>();
const live = Array.from({ length: clients }, () =>
  connect('', (c, version) => {
    c.received++;
    if (!c.arrivals.has(version)) c.arrivals.set(version, performance.now());
  }),
);
await new Promise((r) => setTimeout(r, 500));
const committed: number[] = [];
for (let b = 0; b < blocks; b++) {
  const before = devnet.ledgerVersion();
  devnet.advance(1);
  const now = performance.now();
  for (let v = before + 1; v <= devnet.ledgerVersion(); v++) published.set(v, now);
  const target = devnet.ledgerVersion();
  while (((await feedIndexedVersion(test.db)) ?? 0) < target) await new Promise((r) => setTimeout(r, 2));
  committed.push(performance.now() - now);
  await new Promise((r) => setTimeout(r, 100));
}
await new Promise((r) => setTimeout(r, 1500));
const latencies: number[] = [];
for (const c of live) {
  for (const [version, at] of c.arrivals) {
    const sent = published.get(version);
    if (sent !== undefined) latencies.push(at - sent);
  }
}
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
const ms = (x: number) => `${x.toFixed(0)} ms`;
console.log(
  `baseline: block published -> indexer committed   p50 ${ms(pct(committed, 50))}  p99 ${ms(pct(committed, 99))}  (${committed.length} blocks)`,
);
console.log(
  `block published -> ${clients} SSE clients received  p50 ${ms(pct(latencies, 50))}  p99 ${ms(pct(latencies, 99))}  (${latencies.length} deliveries)`,
);

for (const c of live) c.abort.abort();
await Promise.all(live.map((c) => c.done));
stop.abort();
await indexing;
await app.close();
await devnet.close();
await test.drop();
