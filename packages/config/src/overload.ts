import { type Env, optional, readInt } from './read-env';

/**
 * The API's load shedding (issue #37): past any of these limits a request is refused at once with
 * 503 `SERVICE_UNAVAILABLE` and `retry-after`, before it takes a key lookup or a database
 * connection, instead of queueing until the client gives up. `/health` and `/metrics` are never
 * refused. docs/RELIABILITY.md, "Overload", says why each default is what it is.
 */
export interface OverloadConfig {
  /** Mean event-loop delay over one sample (ms) past which requests are refused; 0 turns it off. */
  maxEventLoopDelayMs: number;
  /** Heap in use (MB) past which requests are refused; undefined: 90% of V8's heap limit; 0: off. */
  maxHeapMb: number | undefined;
  /**
   * The API's own time (ms) the fastest answers of each 100 ms should stay under: the requests it
   * works on at once are limited to what keeps them there; 0 turns the limit off.
   */
  targetLatencyMs: number;
  /** How long (ms) the oldest query may have waited for a connection before requests are refused; 0: off. */
  maxDbWaitMs: number;
  /** Queries waiting for a connection of the API's pool past which requests are refused; 0: off. */
  maxDbWaiting: number;
  /** The seconds `retry-after` asks a refused client to wait. */
  retryAfterSeconds: number;
  /** Postgres `statement_timeout` of the API's connections (ms): a statement past it ends in a 503. */
  statementTimeoutMs: number;
}

export const OVERLOAD_DEFAULTS: OverloadConfig = {
  maxEventLoopDelayMs: 200,
  maxHeapMb: undefined,
  // Off by default: both refuse work that clients retrying at once would have had answered
  // (docs/RELIABILITY.md, "Overload"); for deployments whose clients wait out `retry-after`.
  targetLatencyMs: 0,
  maxDbWaitMs: 0,
  // Above the queue a hundred concurrent clients build at full use (a page sends its rows and its
  // count at once, so up to three statements per request wait with the pool's twenty busy): at 100
  // the live bench's hundred connections were refused 41 times in 20 s with nothing overloaded.
  maxDbWaiting: 300,
  retryAfterSeconds: 2,
  statementTimeoutMs: 10_000,
};

export function loadOverloadConfig(env: Env): OverloadConfig {
  const d = OVERLOAD_DEFAULTS;
  return {
    maxEventLoopDelayMs: readInt(env, 'MDQ_SHED_EVENT_LOOP_DELAY_MS', d.maxEventLoopDelayMs, 0, 60_000),
    maxHeapMb: optional(env, 'MDQ_SHED_HEAP_MB', (v, n) => readInt({ [n]: v }, n, 0, 0, 1_000_000)),
    targetLatencyMs: readInt(env, 'MDQ_SHED_TARGET_LATENCY_MS', d.targetLatencyMs, 0, 60_000),
    maxDbWaitMs: readInt(env, 'MDQ_SHED_DB_WAIT_MS', d.maxDbWaitMs, 0, 600_000),
    maxDbWaiting: readInt(env, 'MDQ_SHED_DB_WAITING', d.maxDbWaiting, 0, 100_000),
    retryAfterSeconds: readInt(env, 'MDQ_SHED_RETRY_AFTER_SECONDS', d.retryAfterSeconds, 1, 3600),
    statementTimeoutMs: readInt(env, 'MDQ_API_STATEMENT_TIMEOUT_MS', d.statementTimeoutMs, 100, 3_600_000),
  };
}
