/**
 * Ingestion benchmark (run: `pnpm bench:ingest` from the repository root; `--count N` for the
 * chain size, default 200,000; `--quick` for 20,000). Serves a devnet chain over HTTP, runs the real
 * indexer through @aptos-labs/ts-sdk into a fresh database and prints end-to-end transactions/s,
 * rows/s and peak RSS. Baselines measured in the same run on the same machine:
 *  - fetch only: the same pages read through the SDK without decoding or writing;
 *  - COPY: the rows the indexer stored, copied table by table into an empty database with COPY.
 */
import { pipeline } from 'node:stream/promises';
import { DEFAULTS } from '@mdq/config';
import { createPool, sql } from '@mdq/db';
import { CHAIN_STATE_TABLES } from '@mdq/db/ingest';
import { createTestDatabase } from '@mdq/db/testing';
import { fullnodeSource } from '@mdq/indexer';
import copyStreams from 'pg-copy-streams';
import { startDevnetProcess } from './devnet-process';
import { benchFlags, numberFlag } from './flags';
import { ingestChain, rateAlongChain, stepRows } from './ingest-run';
import { serverSettings } from './server-stats';

const flags = benchFlags();
const count = numberFlag(flags, 'count', flags.count, 200_000, 20_000);
const batchSize = numberFlag(flags, 'batch-size', flags['batch-size'], DEFAULTS.indexerBatchSize);
// failed_transactions holds whole payloads (jsonb): not part of the row throughput.
const TABLES = CHAIN_STATE_TABLES.filter((t) => t !== 'failed_transactions');

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100);
const perSecond = (n: number, ms: number) => Math.round(n / (ms / 1000));
const fmt = (n: number) => n.toLocaleString('en-US');

// The devnet runs in its own process, as a fullnode would be elsewhere: serving (JSON rendering)
// must not take the indexer's CPU.
const devnet = await startDevnetProcess(count);
console.log(`devnet: ${fmt(count)} transactions at ${devnet.url}`);

// Baseline 1: read every page through the SDK, nothing else.
const fetchSource = fullnodeSource(devnet.url);
let t0 = performance.now();
for (let next = 0; next < count; ) {
  const txs = await fetchSource.fetch(next, batchSize);
  if (txs.length === 0) break;
  next += txs.length;
}
const fetchMs = performance.now() - t0;

// The indexer, end to end.
const target = await createTestDatabase();
peakRss = process.memoryUsage().rss;
const run = await ingestChain(target.db, devnet.url, batchSize);
const { stats } = run;
const indexMs = run.ms;
const indexPeak = peakRss;
const { rows } = await sql<{ n: number }>`
  SELECT (${sql.join(
    TABLES.map((t) => sql`(SELECT count(*) FROM ${sql.table(t)})`),
    sql` + `,
  )})::bigint AS n
`.execute(target.db);
const storedRows = Number(rows[0]?.n ?? 0);

// Baseline 2: COPY the same rows into the same (empty) tables of a second database.
const copyTarget = await createTestDatabase();
const from = createPool(target.url, { max: 1 });
const to = createPool(copyTarget.url, { max: 1 });
const source = await from.connect();
const sink = await to.connect();
t0 = performance.now();
for (const table of TABLES) {
  await pipeline(
    source.query(copyStreams.to(`COPY ${table} TO STDOUT (FORMAT binary)`)),
    sink.query(copyStreams.from(`COPY ${table} FROM STDIN (FORMAT binary)`)),
  );
}
const copyMs = performance.now() - t0;
source.release();
sink.release();
await from.end();
await to.end();

clearInterval(sampler);
const tenths = rateAlongChain(run);
const lastOverFirst = (tenths.at(-1)?.txPerSecond ?? 0) / (tenths[0]?.txPerSecond ?? 1);
const indexRows = perSecond(storedRows, indexMs);
const copyRows = perSecond(storedRows, copyMs);
console.log(`
| measure | value |
|---|---|
| server | ${await serverSettings(target.db)} |
| transactions | ${fmt(stats.transactions)} (${stats.failed} undecodable) |
| rows stored | ${fmt(storedRows)} |
| indexer end to end | ${fmt(perSecond(stats.transactions, indexMs))} tx/s, ${fmt(indexRows)} rows/s (${(indexMs / 1000).toFixed(1)} s) |
| baseline: fetch only (SDK, same pages) | ${fmt(perSecond(count, fetchMs))} tx/s |
| baseline: COPY of the same rows | ${fmt(copyRows)} rows/s (${(copyMs / 1000).toFixed(1)} s) |
| indexer rows/s ÷ COPY rows/s | ${(indexRows / copyRows).toFixed(2)} |
| indexer tx/s ÷ fetch-only tx/s | ${(perSecond(stats.transactions, indexMs) / perSecond(count, fetchMs)).toFixed(2)} |
| peak RSS while indexing | ${(indexPeak / 1e6).toFixed(0)} MB |
| rate, last 10% of the chain ÷ first 10% | ${lastOverFirst.toFixed(2)} (${fmt(Math.round(tenths[0]?.txPerSecond ?? 0))} → ${fmt(Math.round(tenths.at(-1)?.txPerSecond ?? 0))} tx/s) |

Where the indexer's time went (batches of ${batchSize}, ${stats.batches} batches, ${(indexMs / 1000).toFixed(1)} s wall):

${stepRows(run)}
`);
await target.drop();
await copyTarget.drop();
devnet.stop();
process.exit(0);
