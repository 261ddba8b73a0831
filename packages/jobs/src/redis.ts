import {
  createFailureLog,
  describeError,
  type FailureLog,
  failureKey,
  processLogger,
  writePendingFailureCounts,
} from '@mdq/log';
import { Redis } from 'ioredis';

/**
 * Where the 'error' events of Redis connections and BullMQ objects go. An EventEmitter without an
 * 'error' listener throws; BullMQ catches that and prints the whole stack trace, and ioredis prints
 * one too, for every reconnect attempt of every connection: a 10 s outage once wrote 1,205 lines
 * from one worker. Every connection and every Queue, Worker, QueueEvents and FlowProducer we create
 * reports here instead.
 */
export type RedisErrorSink = (error: unknown) => void;

/**
 * A sink that hands `report` each failure once, cut short and without a stack. The same error
 * object reaches several listeners (ioredis emits it on the connection, BullMQ forwards it to every
 * Queue and Worker on that connection): it is reported once. `report` must de-duplicate repeats
 * (a de-duplicating logger, or `dedupedRedisSink`).
 */
export function redisErrorSink(report: (reason: string) => void): RedisErrorSink {
  const seen = new WeakSet<object>();
  return (error) => {
    if (typeof error === 'object' && error !== null) {
      if (seen.has(error)) return;
      seen.add(error);
    }
    report(describeError(error));
  };
}

/** What a de-duplicated sink writes: the failure and how often it happened since its last line. */
export type RedisFailureWriter = (failure: { reason: string; count: number }) => void;

/** A sink that writes one line per distinct failure per window (`@mdq/log`), with a count. */
export function dedupedRedisSink(
  write: RedisFailureWriter,
  failures: FailureLog = createFailureLog(),
): RedisErrorSink {
  return redisErrorSink((reason) =>
    failures.report(failureKey(`redis ${reason}`), ({ count }) => write({ reason, count })),
  );
}

/** For connections made without a sink of the caller's (tests, tools): one log line per failure. */
export const stderrRedisSink = dedupedRedisSink(({ reason, count }) =>
  processLogger().warn({ component: 'redis', err: reason, count }, 'redis unreachable'),
);

/** Anything with BullMQ's or ioredis' 'error' event. */
interface ErrorEmitter {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Sends the 'error' events of BullMQ objects (Queue, Worker, QueueEvents, FlowProducer) to `sink`. */
export function reportErrors<T extends ErrorEmitter>(sink: RedisErrorSink, emitter: T): T {
  emitter.on('error', sink);
  return emitter;
}

/**
 * A connection for BullMQ. `maxRetriesPerRequest: null` (BullMQ requires it for workers, and we
 * want it for the producer too): a command issued while Redis is down waits in the offline queue and
 * runs once it is back, instead of failing. The producer is the indexer's outbox drainer, which runs
 * beside ingestion, so its wait holds nothing up and its jobs go out the moment Redis returns.
 * Reconnect attempts come every 2 s at most, so recovery is prompt; they are logged de-duplicated.
 */
export function createRedis(url: string, onError: RedisErrorSink = stderrRedisSink): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  redis.on('error', onError);
  return countsWrittenOnRecovery(redis);
}

/**
 * When a connection that failed is ready again, the outage's repeated failures are written at once
 * (`writePendingFailureCounts`) rather than at the end of their window, which can fall after a
 * SIGTERM and read as an error of the shutdown. BullMQ duplicates the connection it is handed (a
 * Worker's blocking connection): the duplicates are watched too, so the last one to recover writes.
 */
function countsWrittenOnRecovery(redis: Redis): Redis {
  let failed = false;
  redis.on('error', () => {
    failed = true;
  });
  redis.on('ready', () => {
    if (!failed) return;
    failed = false;
    writePendingFailureCounts();
  });
  const duplicate = redis.duplicate.bind(redis);
  redis.duplicate = (...args: Parameters<Redis['duplicate']>) => countsWrittenOnRecovery(duplicate(...args));
  return redis;
}

/** True when a Redis answers PING at `url` within the timeout (used to pick BullMQ or in-process). */
export async function redisAnswers(url: string, timeoutMs = 500): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
