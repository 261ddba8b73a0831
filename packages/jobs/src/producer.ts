import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { redisChangeBacklog } from './change-backlog';
import { coalescedJobOptions } from './coalescing';
import { DEFAULT_COLLECTION_CHANGED_WINDOW_MS, JOB_POLICIES } from './job-runtime';
import { type CollectionChangedPayload, collectionChangedJobId, DEFAULT_PREFIX, QUEUE_NAMES } from './queues';
import { type RedisErrorSink, reportErrors, stderrRedisSink } from './redis';

/** What the indexer needs from the job system: say which collections a committed batch touched. */
export interface ChangeNotifier {
  collectionsChanged(collectionIds: readonly string[], version: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * BullMQ producer: one job per collection and window, by the coalescing rule of every requested job
 * (`coalescing.ts`, keyed by `collectionChangedJobId`). Each change is also marked in the change
 * backlog, which the worker reads to say how old the oldest unprocessed change is. The queue's
 * 'error' events (Redis unreachable) go to `onError` (default: one stderr line per distinct failure).
 */
export function bullmqNotifier(
  connection: Redis,
  options: { prefix?: string; windowMs?: number; onError?: RedisErrorSink } = {},
): ChangeNotifier {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const queue = reportErrors(
    options.onError ?? stderrRedisSink,
    new Queue<CollectionChangedPayload>(QUEUE_NAMES.collectionChanged, {
      connection,
      prefix,
      defaultJobOptions: JOB_POLICIES[QUEUE_NAMES.collectionChanged],
    }),
  );
  const backlog = redisChangeBacklog(connection, prefix);
  const windowMs = options.windowMs ?? DEFAULT_COLLECTION_CHANGED_WINDOW_MS;
  return {
    async collectionsChanged(collectionIds, version) {
      const ids = [...new Set(collectionIds)];
      if (ids.length === 0) return;
      const changedAt = Date.now();
      // Marked before the job exists, so a job never starts without seeing its change's mark.
      await backlog.mark(ids, changedAt);
      await queue.addBulk(
        ids.map((collectionId) => ({
          name: QUEUE_NAMES.collectionChanged,
          data: { collectionId, version, changedAt },
          opts: coalescedJobOptions({ key: collectionChangedJobId(collectionId), windowMs }),
        })),
      );
    },
    close: () => queue.close(),
  };
}

/** For the embedded mode without Redis: the worker runs in this process and is called directly. */
export function inProcessNotifier(
  handle: (payload: CollectionChangedPayload) => Promise<void> | void,
): ChangeNotifier {
  return {
    async collectionsChanged(collectionIds, version) {
      const changedAt = Date.now();
      for (const collectionId of new Set(collectionIds)) await handle({ collectionId, version, changedAt });
    },
    async close() {},
  };
}

export const noopNotifier: ChangeNotifier = {
  async collectionsChanged() {},
  async close() {},
};
