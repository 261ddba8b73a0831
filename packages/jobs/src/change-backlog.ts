import type { Redis } from 'ioredis';
import { QUEUE_NAMES } from './queues';

/**
 * When each collection's first not-yet-processed change happened. The producer marks a change
 * (keeping the earliest), the recompute takes the mark as it starts (it reads everything committed
 * before that), so the oldest mark is how stale the freshest derived data can be.
 */
export interface ChangeBacklog {
  /** Records a change at `at` (epoch ms) for collections that have no unprocessed change yet. */
  mark(collectionIds: readonly string[], at: number): Promise<void>;
  /** Removes and returns the collection's first unprocessed change, null when there is none. */
  take(collectionId: string): Promise<number | null>;
  /** How many collections wait, and since when the oldest has. */
  summary(): Promise<BacklogSummary>;
}

export interface BacklogSummary {
  pending: number;
  oldestChangeAt: number | null;
}

/** Shared by the indexer's producer and the BullMQ worker: one hash next to the queue's keys. */
export function redisChangeBacklog(connection: Redis, prefix: string): ChangeBacklog {
  const key = `${prefix}:${QUEUE_NAMES.collectionChanged}:first-change`;
  return {
    async mark(collectionIds, at) {
      if (collectionIds.length === 0) return;
      const pipeline = connection.pipeline();
      for (const id of collectionIds) pipeline.hsetnx(key, id, String(at));
      await pipeline.exec();
    },
    async take(collectionId) {
      const replies = await connection.multi().hget(key, collectionId).hdel(key, collectionId).exec();
      const value = replies?.[0]?.[1];
      return typeof value === 'string' ? Number(value) : null;
    },
    async summary() {
      const values = await connection.hvals(key);
      return summarise(values.map(Number));
    },
  };
}

/** For the in-process runner without Redis. */
export function memoryChangeBacklog(): ChangeBacklog {
  const first = new Map<string, number>();
  return {
    async mark(collectionIds, at) {
      for (const id of collectionIds) if (!first.has(id)) first.set(id, at);
    },
    async take(collectionId) {
      const at = first.get(collectionId) ?? null;
      first.delete(collectionId);
      return at;
    },
    async summary() {
      return summarise([...first.values()]);
    },
  };
}

function summarise(changes: number[]): BacklogSummary {
  let oldest: number | null = null;
  for (const at of changes) if (oldest === null || at < oldest) oldest = at;
  return { pending: changes.length, oldestChangeAt: oldest };
}
