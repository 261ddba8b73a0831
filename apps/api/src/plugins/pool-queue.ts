import type pg from 'pg';

/** How long the API's queries have been waiting for a connection. */
export interface PoolQueue {
  /** Milliseconds the oldest of them has waited (0 when none waits). */
  oldestWaitMs(now?: number): number;
}

/**
 * Times every connection request of the pools. pg.Pool tells how many queries wait
 * (`waitingCount`) but not for how long, and a count says little about time: twenty quick reads
 * in the queue are a few milliseconds, twenty statistics of a large collection are seconds. The
 * age of the oldest waiter is the queueing delay a new request would meet (the pool serves its
 * queue in order), the signal CoDel-style admission uses.
 *
 * Each pool's `connect` is wrapped once; both of its forms are kept (Kysely awaits the promise,
 * `pool.query` passes a callback).
 */
export function watchPoolQueue(pools: readonly pg.Pool[]): PoolQueue {
  const queues = pools.map(pendingOf);
  return {
    oldestWaitMs(now = performance.now()) {
      let oldest = 0;
      for (const pending of queues) {
        // Insertion order is request order: the first entry is the pool's oldest waiter. A
        // connection handed over at once is an entry for a moment, read as a wait of about 0 ms.
        for (const since of pending.values()) {
          oldest = Math.max(oldest, now - since);
          break;
        }
      }
      return oldest;
    },
  };
}

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: () => void) => void;

const PENDING = Symbol('mdq.poolPending');

/** The pool's connection requests still waiting, by ticket, with when they were made; wraps `connect` once per pool. */
function pendingOf(pool: pg.Pool): Map<object, number> {
  const marked = pool as pg.Pool & { [PENDING]?: Map<object, number> };
  const known = marked[PENDING];
  if (known) return known;
  const pending = new Map<object, number>();
  marked[PENDING] = pending;
  const connect = pool.connect.bind(pool) as (
    callback?: ConnectCallback,
  ) => Promise<pg.PoolClient> | undefined;
  const timed = (callback?: ConnectCallback) => {
    const ticket = {};
    pending.set(ticket, performance.now());
    if (callback) {
      return connect((err, client, done) => {
        pending.delete(ticket);
        callback(err, client, done);
      });
    }
    return (connect() as Promise<pg.PoolClient>).finally(() => pending.delete(ticket));
  };
  pool.connect = timed as typeof pool.connect;
  return pending;
}
