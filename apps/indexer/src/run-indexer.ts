import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import type { DecodedTransaction } from '@mdq/chain';
import { isUnknownRestType, UNKNOWN_REST_TYPE as UNKNOWN_TYPE } from '@mdq/chain/stream';
import {
  acquireFollowerLock,
  type Db,
  type FollowerLock,
  LockUnavailableError,
  MAIN_CHECKPOINT,
  readCheckpoint,
} from '@mdq/db';
import {
  CheckpointMovedError,
  type FailedDecode,
  type IngestResult,
  toBatch,
  writeBatch,
} from '@mdq/db/ingest';
import type { ChangeNotifier } from '@mdq/jobs';
import { createFailureLog, describeError, type FailureLog, failureKey, type Logger } from '@mdq/log';
import { indexerUnknownTransactions } from '@mdq/telemetry';
import { checkContiguity, GapError } from './contiguity';
import { type OutboxDrainer, startOutboxDrainer } from './outbox-drainer';
import type { ChainSource } from './source';
import { versionOf } from './source';
import { FatalSourceError, RateLimitedError } from './source-errors';
import { type StatsKeeper, startStatsKeeper } from './stats-keeper';

export type Decoder = (tx: TransactionResponse) => DecodedTransaction;

/** A checked page: its transactions and the last version it accounts for (null: nothing new yet). */
interface Page {
  txs: TransactionResponse[];
  lastVersion: number | null;
}

interface InFlight {
  startedAt: number;
  fetchWaitMs: number;
  decodeMs: number;
  result: Promise<IngestResult>;
  transactions: number;
  failed: FailedDecode[];
  lastVersion: number;
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
  log?: Logger;
  /** Told after each batch commits: progress bars and metrics. */
  onBatch?: (batch: BatchCommitted) => void;
  /** Each wait before a retry and how long it is (a 429's Retry-After, else the backoff). */
  onRetry?: (retry: { what: string; reason: string; waitMs: number }) => void;
  /** Poll interval when caught up; grows up to maxPollMs while nothing new arrives. */
  pollMs?: number;
  maxPollMs?: number;
  /** Longest wait between two attempts of a failing call (default 30 s); attempts never stop. */
  maxBackoffMs?: number;
  /** Times a page with a gap is fetched again before the run stops with a GapError (default 5). */
  gapRetries?: number;
}

export interface BatchCommitted {
  lastVersion: number;
  transactions: number;
  rows: number;
  /** From the start of the batch's decode to its commit. */
  durationMs: number;
  /** Time the loop waited for this batch's page (fetches run ahead, so often ~0). */
  fetchWaitMs: number;
  /** Decoding the page and mapping it to rows, on this process's thread. */
  decodeMs: number;
  /** Wall milliseconds of each write step inside the batch's transaction, commit included. */
  writeSteps: Record<string, number>;
}

export interface IndexerStats {
  checkpoint: string;
  transactions: number;
  rows: number;
  batches: number;
  failed: number;
  /** Transactions of a type this build does not know, indexed as opaque non-user transactions. */
  unknownTypes: number;
  lastVersion: number | null;
  elapsedMs: number;
}

/**
 * Follows the chain: read a batch, decode it, write rows + checkpoint in one transaction, tell the
 * worker what changed, repeat. The main follower (no --from/--to) holds an advisory lock; an
 * explicit range (backfill) gets a checkpoint of its own and can run beside it.
 */
export async function runIndexer(options: IndexerOptions): Promise<IndexerStats> {
  const ranged = options.from !== undefined || options.to !== undefined;
  const name = ranged ? `range:${options.from ?? 0}-${options.to ?? 'tip'}` : MAIN_CHECKPOINT;
  const failures = createFailureLog();
  const drainer = startOutboxDrainer({
    db: options.db,
    notifier: options.notifier,
    log: options.log,
    failures,
  });
  const plannerStats = startStatsKeeper(options.db, options.log);
  let lock: FollowerLock | null = null;
  try {
    if (!ranged) lock = await acquireFollowerLock(options.db, `mdq-indexer:${MAIN_CHECKPOINT}`);
    return await follow(options, name, { failures, drainer, lock, plannerStats });
  } finally {
    await plannerStats.close();
    await drainer.close();
    await lock?.release();
    failures.close();
  }
}

interface Runtime {
  failures: FailureLog;
  drainer: OutboxDrainer;
  lock: FollowerLock | null;
  plannerStats: StatsKeeper;
}

async function follow(options: IndexerOptions, name: string, runtime: Runtime): Promise<IndexerStats> {
  const started = Date.now();
  const stats: IndexerStats = {
    checkpoint: name,
    transactions: 0,
    rows: 0,
    batches: 0,
    failed: 0,
    unknownTypes: 0,
    lastVersion: null,
    elapsedMs: 0,
  };
  const seenUnknown = new Set<string>();
  /** A type this build does not know: counted, logged once per type, and indexed all the same. */
  const noteUnknownType = (tx: TransactionResponse) => {
    const record = tx as unknown as Record<string, unknown>;
    const type =
      record['type'] === UNKNOWN_TYPE ? `proto type ${String(record['proto_type'])}` : String(record['type']);
    stats.unknownTypes += 1;
    indexerUnknownTransactions.inc({ type });
    if (seenUnknown.has(type)) return;
    seenUnknown.add(type);
    options.log?.warn(
      { type, version: versionOf(tx) },
      'a transaction type this build does not know: indexed as an opaque non-user transaction (update mdq to decode it)',
    );
  };
  const retrying = <T>(what: string, fn: () => Promise<T>) => retry(what, fn, options, runtime.failures);
  let committed = await retrying('read the checkpoint', () => readCheckpoint(options.db, name));
  const tip = await retrying('read the chain tip', () => options.source.tip());
  let next = committed !== null ? committed + 1 : (options.from ?? options.startVersion ?? historyStart());
  function historyStart(): number {
    // Nothing says where history starts: the source's choice, said out loud (README, "Where history starts").
    const start = options.source.historyStart ?? {
      version: tip.oldestVersion,
      why: 'the oldest version the fullnode has (a pruned node has no older history)',
    };
    options.log?.info(
      { version: start.version },
      `empty checkpoint and no MDQ_START_VERSION: starting at version ${start.version}, ${start.why}`,
    );
    return start.version;
  }
  const stopAt = options.to ?? (options.untilCaughtUp ? tip.ledgerVersion : Number.POSITIVE_INFINITY);
  let idleMs = options.pollMs ?? 250;
  const sparse = options.source.sparse === true;
  const gapRetries = options.gapRetries ?? 5;

  // A page is fetched again while it does not continue at `start`; a source that insists stops
  // the run with the GapError naming the missing versions.
  const fetchPage = async (start: number, limit: number): Promise<Page> => {
    for (let attempt = 0; ; attempt++) {
      const fetched = await retrying('fetch transactions', () => options.source.fetch(start, limit));
      if (!Array.isArray(fetched)) throw new Error('the source answered with something else than a list');
      const kept = fetched.filter((tx) => versionOf(tx) <= stopAt);
      // A filtered stream's page accounts for a range of versions, some of them skipped on purpose.
      const through = fetched.through === undefined ? undefined : Math.min(fetched.through, stopAt);
      try {
        const last = checkContiguity(kept, start, sparse, through);
        // An empty page is "nothing new yet", unless a filtered stream covered versions with it.
        return { txs: kept, lastVersion: kept.length > 0 || last >= start ? last : null };
      } catch (error) {
        if (!(error instanceof GapError) || attempt >= gapRetries || options.signal?.aborted) throw error;
        const reason = error.message;
        runtime.failures.report(failureKey(reason), ({ count }) =>
          options.log?.warn({ err: reason, attempt: attempt + 1, count }, 'refetching a page with a gap'),
        );
        await sleep(Math.min(250 * 2 ** attempt, options.maxBackoffMs ?? 30_000), options.signal);
      }
    }
  };

  // The next batch is fetched while the current one is decoded and written: the fullnode's
  // latency and the database's overlap instead of adding up.
  const fetchFrom = (start: number) => fetchPage(start, Math.min(options.batchSize, stopAt - start + 1));
  let prefetched: Promise<Page> | null = null;
  // The batch being written while the next one is decoded: decoding is this process's CPU, the
  // write is Postgres', so on two cores they overlap. Writes stay strictly in order.
  let writing: InFlight | null = null;

  const commit = async (inFlight: InFlight) => {
    const { transactions, failed, lastVersion } = inFlight;
    const result = await inFlight.result;
    committed = lastVersion;
    // The collection-changed jobs sit in the outbox, committed with the batch; the drainer enqueues
    // them in the background so that a Redis outage never holds ingestion.
    runtime.drainer.kick();
    runtime.plannerStats.kick();
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
    // Debug: at info a busy chain would print one line per batch.
    options.log?.debug({ lastVersion, transactions, rows: result.rowsWritten }, 'batch committed');
    options.onBatch?.({
      lastVersion,
      transactions,
      rows: result.rowsWritten,
      durationMs: Date.now() - inFlight.startedAt,
      fetchWaitMs: inFlight.fetchWaitMs,
      decodeMs: inFlight.decodeMs,
      writeSteps: result.steps,
    });
  };

  try {
    while (!options.signal?.aborted && next <= stopAt) {
      const fetchStarted = performance.now();
      const { txs, lastVersion } = await (prefetched ?? fetchFrom(next));
      const fetchWaitMs = performance.now() - fetchStarted;
      prefetched = null;
      if (lastVersion === null) {
        if (writing) {
          await commit(writing);
          writing = null;
        }
        if (options.untilCaughtUp || options.to !== undefined) {
          // A recorded chain can end before `to`; a live one has nothing newer yet.
          const current = await retrying('read the chain tip', () => options.source.tip());
          if (current.ledgerVersion < next) break;
        }
        await sleep(idleMs, options.signal);
        idleMs = Math.min(idleMs * 2, options.maxPollMs ?? 5_000);
        continue;
      }
      idleMs = options.pollMs ?? 250;

      if (lastVersion < stopAt && txs.length === Math.min(options.batchSize, stopAt - next + 1)) {
        prefetched = fetchFrom(lastVersion + 1);
        // Unobserved until awaited: keep an early failure from becoming an unhandled rejection.
        prefetched.catch(() => undefined);
      }
      const startedAt = Date.now();
      const decoded: DecodedTransaction[] = [];
      const failed: FailedDecode[] = [];
      let decodeMs = 0;
      for (let i = 0; i < txs.length; i += DECODE_SLICE) {
        // Decoding runs while the previous batch is written, and that write needs this thread to
        // send each next statement: a slice at a time, so a statement's answer waits at most one
        // slice instead of the whole page (which left Postgres idle for the page's decode).
        if (i > 0) await yieldToIo();
        const sliceStarted = performance.now();
        for (const tx of txs.slice(i, i + DECODE_SLICE)) {
          if (isUnknownRestType((tx as { type?: unknown }).type)) noteUnknownType(tx);
          try {
            decoded.push(options.decode(tx));
          } catch (error) {
            failed.push({ version: versionOf(tx), reason: describeError(error, 2_000), payload: tx });
          }
        }
        decodeMs += performance.now() - sliceStarted;
      }
      const mapStarted = performance.now();
      const batch = toBatch(name, lastVersion, decoded, failed);
      decodeMs += performance.now() - mapStarted;
      if (writing) await commit(writing);
      // Written only on top of the checkpoint it continues: never past a hole, never twice.
      batch.checkpoint.previous = committed;
      const result = retrying('write a batch', async () => {
        await runtime.lock?.ensure();
        return writeBatch(options.db, batch);
      });
      result.catch(() => undefined);
      writing = { startedAt, fetchWaitMs, decodeMs, result, transactions: txs.length, failed, lastVersion };
      next = lastVersion + 1;
    }
    if (writing) await commit(writing);
  } finally {
    // Keep an abandoned prefetch from surfacing as an unhandled rejection.
    prefetched?.catch(() => undefined);
  }
  stats.elapsedMs = Date.now() - started;
  return stats;
}

/** Failures that retrying cannot cure: the run stops and says why. */
function isFatal(error: unknown): boolean {
  return (
    error instanceof CheckpointMovedError || error instanceof GapError || error instanceof FatalSourceError
  );
}

/**
 * Network, source and database failures are retried with capped exponential backoff for as long
 * as the run lasts (until aborted), logging why it waits: one line per distinct failure, with a
 * count, however long the outage.
 */
async function retry<T>(
  what: string,
  fn: () => Promise<T>,
  options: IndexerOptions,
  failures: FailureLog,
): Promise<T> {
  let delay = 250;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (options.signal?.aborted || isFatal(error)) throw error;
      const reason = describeError(error);
      const waiting =
        error instanceof LockUnavailableError ? 'another process took the follower lock' : reason;
      // A 429 says how long to stay away (Retry-After); the backoff goes on from there.
      const wait = error instanceof RateLimitedError ? error.retryAfterMs : delay;
      failures.report(failureKey(`${what} ${waiting}`), ({ count }) =>
        options.log?.warn({ err: waiting, attempt, count, retryInMs: wait }, `could not ${what}; retrying`),
      );
      options.onRetry?.({ what, reason: waiting, waitMs: wait });
      await sleep(wait, options.signal);
      if (options.signal?.aborted) throw error;
      delay = Math.min(delay * 2, options.maxBackoffMs ?? 30_000);
    }
  }
}

/** Transactions decoded between two turns of the event loop (about a millisecond of work). */
const DECODE_SLICE = 8;

function yieldToIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
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
