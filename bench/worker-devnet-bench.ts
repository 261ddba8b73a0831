/**
 * Ingestion and worker recompute on a devnet chain (run: `pnpm --filter @mdq/bench
 * bench:worker-devnet`, `--count N`, default 1,000,000; `--quick` 20,000). The chain is served by a
 * devnet process and ingested end to end by the real indexer (where each batch's time goes, and the
 * rate along the chain, first tenth against last); then the full recompute (snapshots, five
 * rankings, OpenRarity for every collection, inventories) is timed at the chain's "now", next to the
 * bare SQL 7-day aggregate over the same activity table.
 *
 * `--template` skips the ingestion and times the recompute on a copy of the API bench's chain
 * database of the same size (`api-dataset.ts`). A full run (or `--write`) draws the rate along the
 * chain into docs/ingest-rate.svg.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULTS } from '@mdq/config';
import { createDb, type Db, sql } from '@mdq/db';
import { createTestDatabase } from '@mdq/db/testing';
import { recomputeAll } from '@mdq/worker';
import { cloneBenchDatabase } from './api-dataset';
import { startDevnetProcess } from './devnet-process';
import { benchFlags, numberFlag } from './flags';
import { ingestChain, rateAlongChain, stepRows } from './ingest-run';
import { rateChartSvg } from './rate-chart';
import { saleToTrending } from './sale-latency';
import { readServer, serverRows, serverSettings } from './server-stats';
import { rankingBaselines } from './worker-baselines';

const flags = benchFlags({ template: { type: 'boolean' }, 'rankings-window-ms': { type: 'string' } });
const count = numberFlag(flags, 'count', flags.count, 1_000_000, 20_000);
const batchSize = numberFlag(flags, 'batch-size', flags['batch-size'], DEFAULTS.indexerBatchSize);
// The live sale's path through the worker: its rankings-refresh window (default: the worker's).
const windowMs =
  flags['rankings-window-ms'] === undefined
    ? undefined
    : numberFlag(flags, 'rankings-window-ms', flags['rankings-window-ms'], 0);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(', ');

/** A copy of the chain's template database (built or restored if missing), and how to drop it. */
async function openCopy(): Promise<{ db: Db; drop: () => Promise<void> }> {
  const copy = await cloneBenchDatabase(count);
  const copyDb = createDb(copy.url, { max: 4 });
  return {
    db: copyDb,
    drop: async () => {
      await copyDb.destroy();
      await copy.drop();
    },
  };
}

let db: Db;
let drop: () => Promise<void>;
if (flags.template) {
  ({ db, drop } = await openCopy());
  console.log(
    `chain: copy of the ${fmt(count)}-transaction template (no ingestion); server: ${await serverSettings(db)}`,
  );
} else {
  const devnet = await startDevnetProcess(count);
  const test = await createTestDatabase();
  db = test.db;
  drop = () => test.drop();
  console.log(`ingesting ${fmt(count)} transactions (load ${load()}); server: ${await serverSettings(db)}`);
  const before = await readServer(db);
  const run = await ingestChain(db, devnet.url, batchSize);
  const after = await readServer(db);
  devnet.stop();
  const tenths = rateAlongChain(run);
  const first = tenths[0]?.txPerSecond ?? 0;
  const last = tenths.at(-1)?.txPerSecond ?? 0;
  console.log(`
| measure | value |
|---|---|
| chain end to end | ${fmt(run.stats.transactions)} transactions in ${(run.ms / 1000).toFixed(0)} s (${fmt(run.stats.transactions / (run.ms / 1000))} tx/s), batches of ${batchSize} |
| rate along the chain, each tenth | ${tenths.map((t) => fmt(t.txPerSecond)).join(' → ')} tx/s |
| last 10% ÷ first 10% | ${(last / first).toFixed(2)} |
| load average after | ${load()} |
${serverRows(before, after)}

${stepRows(run)}
`);
  if (flags.write || (!flags.quick && flags.count === undefined)) {
    const here = dirname(fileURLToPath(import.meta.url));
    const file = join(here, '..', 'docs', 'ingest-rate.svg');
    writeFileSync(
      file,
      rateChartSvg(
        run.points,
        `Ingestion rate along a ${fmt(count)}-transaction devnet chain (batches of ${batchSize})`,
      ),
    );
    console.log(`chart: ${file}`);
  }
}

await sql`ANALYZE`.execute(db);
const { rows } = await sql<{ now: Date; sales: number; tokens: number; collections: number }>`
  SELECT (SELECT max(transaction_timestamp) FROM marketplace_activities) AS now,
         (SELECT count(*)::int FROM marketplace_activities WHERE kind LIKE 'fill_%') AS sales,
         (SELECT count(*)::int FROM tokens) AS tokens, (SELECT count(*)::int FROM collections) AS collections`.execute(
  db,
);
const facts = rows[0] as { now: Date; sales: number; tokens: number; collections: number };
const now = new Date(facts.now);

const baselines = await rankingBaselines(db, now);
let t0 = performance.now();
const timings = await recomputeAll(db, now);
const recomputeMs = performance.now() - t0;
t0 = performance.now();
await recomputeAll(db, now);
const secondMs = performance.now() - t0;

console.log(`
| measure | value |
|---|---|
| data | ${fmt(facts.sales)} sales, ${fmt(facts.tokens)} tokens, ${facts.collections} collections |
| baseline: bare SQL window aggregates of the five rankings | ${baselines.rankingsMs.toFixed(0)} ms |
| baseline: OpenRarity's counts as one bare GROUP BY (collection, trait, value) | ${baselines.traitCountsMs.toFixed(0)} ms |
| full recompute | ${recomputeMs.toFixed(0)} ms (rankings ${timings.rankingsMs.toFixed(0)}; then at the same time: hourly collection and inventory snapshots ${timings.snapshotsMs.toFixed(0)}, rarity ${timings.rarityMs.toFixed(0)}); again: ${secondMs.toFixed(0)} ms |
| five rankings ÷ bare SQL | ${(timings.rankingsMs / baselines.rankingsMs).toFixed(1)} |
| OpenRarity, ${fmt(facts.tokens)} tokens ÷ bare GROUP BY | ${(timings.rarityMs / baselines.traitCountsMs).toFixed(1)} |
| load average | ${load()} |
`);

// The live path last, on the ingested and recomputed database.
const latencies = await saleToTrending(
  db,
  count,
  numberFlag(flags, 'seconds', flags.seconds, 60, 20),
  process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
  batchSize,
  windowMs,
);
const sorted = [...latencies].sort((a, b) => a - b);
const windows = `2 s collection window, ${windowMs === undefined ? "the worker's default" : `a ${fmt(windowMs)} ms`} rankings window`;
console.log(`
| measure | value |
|---|---|
| a sale → trending snapshot (indexer commit → stored ranking counts it; ${windows}), ${latencies.length} live sales | median ${fmt(sorted[Math.floor(sorted.length / 2)] ?? 0)} ms, 90th percentile ${fmt(sorted[Math.floor(sorted.length * 0.9)] ?? 0)} ms, max ${fmt(sorted.at(-1) ?? 0)} ms |
`);
await drop();
process.exit(0);
