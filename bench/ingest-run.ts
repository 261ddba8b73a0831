/**
 * One run of the real indexer over a devnet chain, with what the benches print about it: where
 * each batch's time went (fetch wait, decode, each write step, commit) and the ingestion rate along
 * the chain (for the first-10% ÷ last-10% figure and the chart).
 */
import type { Db } from '@mdq/db';
import { type BatchCommitted, fullnodeSource, type IndexerStats, runIndexer } from '@mdq/indexer';
import { noopNotifier } from '@mdq/jobs';
import { devnetProcessDecoder } from './devnet-process';

export interface RatePoint {
  /** Transactions indexed so far. */
  transactions: number;
  /** Milliseconds since the run started. */
  elapsedMs: number;
}

export interface IngestRun {
  stats: IndexerStats;
  ms: number;
  /** Summed over batches: the indexer loop's waits and work, and each write step inside Postgres. */
  fetchWaitMs: number;
  decodeMs: number;
  writeSteps: Record<string, number>;
  points: RatePoint[];
}

export async function ingestChain(db: Db, fullnodeUrl: string, batchSize: number): Promise<IngestRun> {
  const run: Omit<IngestRun, 'stats' | 'ms'> = { fetchWaitMs: 0, decodeMs: 0, writeSteps: {}, points: [] };
  let transactions = 0;
  const t0 = performance.now();
  const onBatch = (b: BatchCommitted) => {
    transactions += b.transactions;
    run.fetchWaitMs += b.fetchWaitMs;
    run.decodeMs += b.decodeMs;
    for (const [step, ms] of Object.entries(b.writeSteps))
      run.writeSteps[step] = (run.writeSteps[step] ?? 0) + ms;
    run.points.push({ transactions, elapsedMs: performance.now() - t0 });
  };
  const stats = await runIndexer({
    db,
    source: fullnodeSource(fullnodeUrl),
    decode: devnetProcessDecoder(),
    notifier: noopNotifier,
    batchSize,
    untilCaughtUp: true,
    onBatch,
  });
  return { ...run, stats, ms: performance.now() - t0 };
}

/**
 * Markdown rows: each part of the run with its share of the wall time. Decode runs while the
 * previous batch is written, so the shares add up to more than 100% when they overlap.
 */
export function stepRows(run: IngestRun): string {
  const share = (ms: number) => `${((ms / run.ms) * 100).toFixed(1)}%`;
  const perBatch = (ms: number) => (ms / Math.max(1, run.stats.batches)).toFixed(1);
  const parts: [string, number][] = [
    ['fetch (waiting for the page)', run.fetchWaitMs],
    ['decode + map to rows', run.decodeMs],
    ...Object.entries(run.writeSteps)
      .sort(([, a], [, b]) => b - a)
      .map(([step, ms]): [string, number] => [`write: ${step}`, ms]),
  ];
  return [
    '| part of a batch | total s | ms per batch | share of wall time |',
    '|---|---|---|---|',
    ...parts.map(([name, ms]) => `| ${name} | ${(ms / 1000).toFixed(1)} | ${perBatch(ms)} | ${share(ms)} |`),
  ].join('\n');
}

/** Transactions per second over each tenth (by default) of the chain, in chain order. */
export function rateAlongChain(run: IngestRun, parts = 10): { upTo: number; txPerSecond: number }[] {
  const total = run.stats.transactions;
  const out: { upTo: number; txPerSecond: number }[] = [];
  let previous: RatePoint = { transactions: 0, elapsedMs: 0 };
  for (let k = 1; k <= parts; k++) {
    const goal = (total * k) / parts;
    const point = run.points.find((p) => p.transactions >= goal) ?? run.points.at(-1);
    if (!point || point.transactions <= previous.transactions) continue;
    const seconds = (point.elapsedMs - previous.elapsedMs) / 1000;
    out.push({
      upTo: point.transactions,
      txPerSecond: (point.transactions - previous.transactions) / seconds,
    });
    previous = point;
  }
  return out;
}
