import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import type { DecodedTransaction } from '@mdq/chain';
import { type Db, type IngestResult, readCheckpoint, withAdvisoryLock, writeBatch } from '@mdq/db';
import type { ChangeNotifier } from '@mdq/jobs';
import type { ChainSource } from './source';
import { versionOf } from './source';
import { type FailedDecode, toBatch } from './to-batch';

export type Decoder = (tx: TransactionResponse) => DecodedTransaction;

interface InFlight {
  startedAt: number;
  result: Promise<IngestResult>;
  transactions: number;
  failed: FailedDecode[];
  lastVersion: number;
}

export interface IndexerLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface IndexerOptions {
  db: Db;
  source: ChainSource;
  decode: Decoder;
  notifier: ChangeNotifier;
  batchSize: number;
  /** First version to read; default: one past the checkpoint, else the oldest the node has. */
  from?: number;
  /**
   * Where the main follower starts when its checkpoint is empty (MDQ_START_VERSION): history
   * before it is never read. Ignored once a checkpoint exists.
   */
  startVersion?: number;
  /** Last version to read (inclusive); default: follow the tip forever. */
  to?: number;
  /** Stop once the tip seen at start-up (or `to`) is reached. */
  untilCaughtUp?: boolean;
  signal?: AbortSignal;
  log?: IndexerLog;
  /** Told after each batch commits: progress bars and metrics. */
  onBatch?: (batch: BatchCommitted) => void;
  /** Poll interval when caught up; grows up to maxPollMs while nothing new arrives. */
  pollMs?: number;
  maxPollMs?: number;
}

export interface BatchCommitted {
  lastVersion: number;
  transactions: number;
  rows: number;
  /** From the start of the batch's decode to its commit. */
  durationMs: number;
}

export interface IndexerStats {
  checkpoint: string;
  transactions: number;
  rows: number;
  batches: number;
  failed: number;
  lastVersion: number | null;
  elapsedMs: number;
}

const MAIN = 'main';

/**
 * Follows the chain: read a batch, decode it, write rows + checkpoint in one transaction, tell the
 * worker what changed, repeat. The main follower (no --from/--to) holds an advisory lock; an
 * explicit range (backfill) gets a checkpoint of its own and can run beside it.
 */
export async function runIndexer(options: IndexerOptions): Promise<IndexerStats> {
  const ranged = options.from !== undefined || options.to !== undefined;
  const name = ranged ? `range:${options.from ?? 0}-${options.to ?? 'tip'}` : MAIN;
  const run = () => follow(options, name);
  return ranged ? run() : withAdvisoryLock(options.db, `mdq-indexer:${MAIN}`, run);
}

async function follow(options: IndexerOptions, name: string): Promise<IndexerStats> {
  const started = Date.now();
  const stats: IndexerStats = {
    checkpoint: name,
    transactions: 0,
    rows: 0,
    batches: 0,
    failed: 0,
    lastVersion: null,
    elapsedMs: 0,
  };
  const checkpoint = await readCheckpoint(options.db, name);
  const tip = await retry(() => options.source.tip(), options);
  let next =
    checkpoint !== null ? checkpoint + 1 : (options.from ?? options.startVersion ?? tip.oldestVersion);
  const stopAt = options.to ?? (options.untilCaughtUp ? tip.ledgerVersion : Number.POSITIVE_INFINITY);
  let idleMs = options.pollMs ?? 250;

  // The next batch is fetched while the current one is decoded and written: the fullnode's
  // latency and the database's overlap instead of adding up.
  const fetchFrom = (start: number) => {
    const limit = Math.min(options.batchSize, stopAt - start + 1);
    return retry(() => options.source.fetch(start, limit), options).then((fetched) =>
      fetched.filter((tx) => versionOf(tx) >= start && versionOf(tx) <= stopAt),
    );
  };
  let prefetched: Promise<TransactionResponse[]> | null = null;
  // The batch being written while the next one is decoded: decoding is this process's CPU, the
  // write is Postgres', so on two cores they overlap. Writes stay strictly in order.
  let writing: InFlight | null = null;

  const commit = async (inFlight: InFlight) => {
    const { transactions, failed, lastVersion } = inFlight;
    const result = await inFlight.result;
    // Enqueued only after commit: the worker must never see a change the database does not hold.
    await options.notifier
      .collectionsChanged(result.touchedCollections, lastVersion)
      .catch((error: unknown) => {
        options.log?.warn({ err: reasonOf(error) }, 'could not enqueue collection-changed jobs');
      });
    stats.transactions += transactions;
    stats.rows += result.rowsWritten;
    stats.batches += 1;
    stats.failed += failed.length;
    stats.lastVersion = lastVersion;
    if (failed.length > 0)
      options.log?.warn({ versions: failed.map((f) => f.version) }, 'undecodable transactions stored');
    if (result.unresolvedOwnerships > 0) {
      options.log?.warn(
        { count: result.unresolvedOwnerships, lastVersion },
        'v1 balances with an unknown table owner',
      );
    }
    options.log?.info({ lastVersion, transactions, rows: result.rowsWritten }, 'batch committed');
    options.onBatch?.({
      lastVersion,
      transactions,
      rows: result.rowsWritten,
      durationMs: Date.now() - inFlight.startedAt,
    });
  };

  while (!options.signal?.aborted && next <= stopAt) {
    const txs = await (prefetched ?? fetchFrom(next));
    prefetched = null;
    if (txs.length === 0) {
      if (writing) {
        await commit(writing);
        writing = null;
      }
      if (options.untilCaughtUp || options.to !== undefined) {
        // A recorded chain can end before `to`; a live one has nothing newer yet.
        const current = await retry(() => options.source.tip(), options);
        if (current.ledgerVersion < next) break;
      }
      await sleep(idleMs, options.signal);
      idleMs = Math.min(idleMs * 2, options.maxPollMs ?? 5_000);
      continue;
    }
    idleMs = options.pollMs ?? 250;

    const lastVersion = versionOf(txs.at(-1) as TransactionResponse);
    if (lastVersion < stopAt && txs.length === Math.min(options.batchSize, stopAt - next + 1)) {
      prefetched = fetchFrom(lastVersion + 1);
      // Unobserved until awaited: keep an early failure from becoming an unhandled rejection.
      prefetched.catch(() => undefined);
    }
    const startedAt = Date.now();
    const decoded: DecodedTransaction[] = [];
    const failed: FailedDecode[] = [];
    for (const tx of txs) {
      try {
        decoded.push(options.decode(tx));
      } catch (error) {
        failed.push({ version: versionOf(tx), reason: reasonOf(error), payload: tx });
      }
    }
    const batch = toBatch(name, lastVersion, decoded, failed);
    if (writing) await commit(writing);
    const result = retry(() => writeBatch(options.db, batch), options);
    result.catch(() => undefined);
    writing = { startedAt, result, transactions: txs.length, failed, lastVersion };
    next = lastVersion + 1;
  }
  if (writing) await commit(writing);
  stats.elapsedMs = Date.now() - started;
  return stats;
}

/** Network and database hiccups are retried with capped exponential backoff until aborted. */
async function retry<T>(fn: () => Promise<T>, options: IndexerOptions): Promise<T> {
  let delay = 250;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (options.signal?.aborted || attempt >= 8) throw error;
      options.log?.warn({ err: reasonOf(error), attempt }, 'retrying after error');
      await sleep(delay, options.signal);
      delay = Math.min(delay * 2, 10_000);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
