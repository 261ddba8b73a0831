/**
 * Devnet benchmark at the 1,000,000-transaction scale (run: `pnpm exec tsx bench/devnet-bench.ts`
 * from the repository root; `--count N` to change the scale). Prints:
 *  - generation rate (tx/s) of the streaming generator, objects only and with JSON serialization,
 *  - server rate (transactions/s served over HTTP, 100 per page, sequential readers),
 *  - random-access latency (a page at a random version),
 *  - peak RSS sampled during each phase.
 */
import { createHash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { startDevnetServer, streamTransactions } from '@mdq/devnet';
import { benchFlags, numberFlag } from './flags';

const flags = benchFlags();
const count = numberFlag(flags, 'count', flags.count, 1_000_000, 100_000);
const serveSeconds = numberFlag(flags, 'seconds', flags.seconds, 20, 5);

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100);
const mb = (b: number) => `${(b / 1e6).toFixed(0)} MB`;
const rate = (n: number, ms: number) => `${Math.round(n / (ms / 1000)).toLocaleString('en-US')} tx/s`;
const yieldToSampler = () => new Promise((r) => setImmediate(r));

async function generation(serialize: boolean, total: number): Promise<void> {
  peakRss = process.memoryUsage().rss;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const hash = createHash('sha256');
  let events = 0;
  let bytes = 0;
  let n = 0;
  for (const tx of streamTransactions({ transactionsCount: count, seed: 1 }, { end: total })) {
    // A block's epilogue or checkpoint has no events list.
    events += Array.isArray(tx['events']) ? tx['events'].length : 0;
    if (serialize) {
      const s = JSON.stringify(tx);
      bytes += s.length;
      hash.update(s);
    }
    if (++n % 50_000 === 0) await yieldToSampler();
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const label = serialize ? `generate + JSON + sha256 (first ${total / 1000}k)` : 'generate (REST objects)';
  console.log(
    `${label.padEnd(36)} ${rate(total, ms).padStart(14)} wall, ${rate(total, cpuMs)} of CPU  ${(ms / 1000).toFixed(1)} s  events ${events}` +
      (serialize ? `  ${mb(bytes)} JSON  sha256 ${hash.digest('hex').slice(0, 16)}…` : '') +
      `  peak RSS ${mb(peakRss)}`,
  );
}

async function serving(): Promise<void> {
  peakRss = process.memoryUsage().rss;
  const t0 = performance.now();
  const server = await startDevnetServer({ transactionsCount: count, seed: 1, port: 0, blockIntervalMs: 0 });
  const prepMs = performance.now() - t0;
  const facts = server.facts();
  console.log(
    `server start (simulate ${count.toLocaleString('en-US')} txs, checkpoints, facts) ${(prepMs / 1000).toFixed(1)} s; ` +
      `tokens ${facts?.totals.tokensMinted.toLocaleString('en-US')}, sales ${facts?.totals.sales.toLocaleString('en-US')}; RSS ${mb(process.memoryUsage().rss)}`,
  );
  // Two sequential readers (as indexers page forward) starting at different versions.
  let served = 0;
  const deadline = performance.now() + serveSeconds * 1000;
  const reader = async (start: number) => {
    let v = start;
    while (performance.now() < deadline && v < count) {
      const res = await fetch(`${server.url}/transactions?start=${v}&limit=100`);
      // The reader shares this process with the server: take the bytes, skip JSON.parse.
      const body = await res.text();
      if (!body.startsWith('[')) throw new Error(body.slice(0, 200));
      const n = Math.min(100, count - v);
      served += n;
      v += n;
    }
  };
  const s0 = performance.now();
  await Promise.all([reader(0), reader(Math.floor(count / 2))]);
  const serveMs = performance.now() - s0;
  console.log(
    `serve GET /v1/transactions (limit 100, 2 readers) ${rate(served, serveMs).padStart(14)}  ${served} txs in ${(serveMs / 1000).toFixed(1)} s  peak RSS ${mb(peakRss)}`,
  );
  // Random jumps: a fresh position resumes from the nearest checkpoint.
  const latencies: number[] = [];
  let x = 12345;
  for (let i = 0; i < 8; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const v = x % count;
    const r0 = performance.now();
    await (await fetch(`${server.url}/transactions?start=${v}&limit=100`)).text();
    latencies.push(performance.now() - r0);
  }
  latencies.sort((a, b) => a - b);
  console.log(
    `random page latency (8 jumps)        median ${latencies[4]?.toFixed(0)} ms, max ${latencies[7]?.toFixed(0)} ms; checkpoints ${server.chain?.checkpointCount}; peak RSS ${mb(peakRss)}`,
  );
  await server.close();
}

// The machine may be shared: report the load so wall-clock rates can be read in context.
console.log(
  `mdq devnet benchmark: ${count.toLocaleString('en-US')} transactions (Node ${process.version}, ${cpus().length} CPUs, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')})`,
);
await generation(false, count);
// Serializing (5-6 KB per transaction) is the consumer's cost; a slice keeps the run under 3 minutes.
await generation(true, Math.min(count, 200_000));
await serving();
clearInterval(sampler);
