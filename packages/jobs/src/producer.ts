import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { type CollectionChangedPayload, collectionChangedJobId, DEFAULT_PREFIX, QUEUE_NAMES } from './queues';

/** What the indexer needs from the job system: say which collections a committed batch touched. */
export interface ChangeNotifier {
  collectionsChanged(collectionIds: readonly string[], version: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * BullMQ producer. One job per collection, debounced: while a job for the collection waits out its
 * delay, a new change replaces it and restarts the delay, so a burst of sales costs one recompute.
 * The deduplication key lives only as long as the delay: a change that arrives while the job is
 * already running starts a new job instead of being dropped.
 */
export function bullmqNotifier(
  connection: Redis,
  options: { prefix?: string; debounceMs?: number } = {},
): ChangeNotifier {
  const queue = new Queue<CollectionChangedPayload>(QUEUE_NAMES.collectionChanged, {
    connection,
    prefix: options.prefix ?? DEFAULT_PREFIX,
    defaultJobOptions: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: { count: 1_000 },
      removeOnFail: { count: 10_000 },
    },
  });
  const delay = options.debounceMs ?? 2_000;
  return {
    async collectionsChanged(collectionIds, version) {
      if (collectionIds.length === 0) return;
      await queue.addBulk(
        collectionIds.map((collectionId) => ({
          name: 'collection-changed',
          data: { collectionId, version },
          opts: {
            delay,
            deduplication: {
              id: collectionChangedJobId(collectionId),
              ttl: delay,
              extend: true,
              replace: true,
            },
          },
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
      for (const collectionId of collectionIds) await handle({ collectionId, version });
    },
    async close() {},
  };
}

export const noopNotifier: ChangeNotifier = {
  async collectionsChanged() {},
  async close() {},
};
