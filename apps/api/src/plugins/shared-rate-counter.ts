import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

/**
 * Adds `ARGV[1]` requests to a key's fixed window (`ARGV[2]` ms, started by its first request)
 * and answers the window's count and the time left in it.
 */
const INCREMENT = `
local current = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {current, ttl}`;

type IncrementingRedis = Redis & {
  mdqRateIncrement(key: string, add: number, windowMs: number): Promise<[number, number]>;
};

interface KeyCount {
  /** The window's count in Redis at its last answer: every process's requests up to then. */
  shared: number;
  /** This process's requests that Redis has not counted yet (waiting for the next flush). */
  unsent: number;
  /** This process's requests sent to Redis whose answer has not come back. */
  sending: number;
  /** When Redis's window for the key ends (epoch ms). */
  windowEnd: number;
  /** When `shared` was read (epoch ms). */
  readAt: number;
  /** The window's length (the limiter's `timeWindow`). */
  windowMs: number;
}

/** Keys whose counts are kept at most; idle ones are dropped first. */
const MAX_KEYS = 10_000;

export interface SharedCounterOptions {
  /** Key prefix in Redis. */
  prefix: string;
  /** How often a process sends the requests it counted on its own (default 10 ms). */
  flushMs?: number;
  /** How long a reading of Redis's count may answer for (default 1 s). */
  trustMs?: number;
}

/**
 * The per-key request count of every API process, kept in Redis without a Redis round trip on
 * most requests (a store for `@fastify/rate-limit`).
 *
 * While a key is below half its limit by this process's last reading of Redis (at most `trustMs`
 * old), the process answers from that reading plus its own requests since, and sends its own
 * requests to Redis in one increment every `flushMs`; each answer refreshes the reading. From half
 * the limit on, each request waits for Redis and is answered with the exact count of every
 * process, so the limit itself holds across processes. What another process counted since the last
 * reading is the only thing an answer below half the limit can miss. With one or two processes
 * that cannot let a request past the limit through; with P processes a burst that lands on all of
 * them within one flush interval (10 ms) can reach at most P × max / 2 before the readings catch up,
 * the price of not waiting for Redis on every request (docs/API.md, rate limits).
 *
 * The blocking round trip per request was a tenth of a cheap request's cost (a socket write and
 * a read in the API, a Lua call in Redis), paid by every request of every key.
 */
export function sharedCounterStore(redis: Redis, options: SharedCounterOptions): FastifyRateLimitStoreCtor {
  const flushMs = options.flushMs ?? 10;
  const trustMs = options.trustMs ?? 1_000;
  if (!('mdqRateIncrement' in redis)) {
    redis.defineCommand('mdqRateIncrement', { numberOfKeys: 1, lua: INCREMENT });
  }
  const client = redis as IncrementingRedis;
  const counts = new Map<string, KeyCount>();
  let flushScheduled = false;

  /** Sends `add` of the key's requests; the answer becomes the key's reading. */
  const send = (key: string, count: KeyCount, add: number): Promise<{ current: number; ttl: number }> => {
    count.sending += add;
    return client.mdqRateIncrement(options.prefix + key, add, count.windowMs).then(
      ([current, ttl]) => {
        const now = Date.now();
        count.sending -= add;
        count.shared = current;
        count.windowEnd = now + ttl;
        count.readAt = now;
        return { current, ttl };
      },
      (error: unknown) => {
        // Redis unreachable: these requests stay uncounted (the limiter skips on errors).
        count.sending -= add;
        throw error;
      },
    );
  };

  const flush = () => {
    flushScheduled = false;
    for (const [key, count] of counts) {
      if (count.unsent === 0) continue;
      const add = count.unsent;
      count.unsent = 0;
      send(key, count, add).catch(() => undefined);
    }
  };

  const countOf = (key: string, windowMs: number, now: number): KeyCount => {
    const known = counts.get(key);
    if (known) return known;
    if (counts.size >= MAX_KEYS) {
      for (const [other, count] of counts) {
        if (count.unsent === 0 && count.sending === 0 && now >= count.windowEnd) counts.delete(other);
      }
    }
    const count = { shared: 0, unsent: 0, sending: 0, windowEnd: 0, readAt: 0, windowMs };
    counts.set(key, count);
    return count;
  };

  class SharedCounterStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ): void {
      const now = Date.now();
      const count = countOf(key, timeWindow, now);
      const estimate = count.shared + count.sending + count.unsent + 1;
      if (now < count.windowEnd && now - count.readAt < trustMs && estimate <= max / 2) {
        count.unsent += 1;
        if (!flushScheduled) {
          flushScheduled = true;
          setTimeout(flush, flushMs).unref();
        }
        callback(null, { current: estimate, ttl: count.windowEnd - now });
        return;
      }
      // Near the limit (or no recent reading): this request and the ones not sent yet, counted now.
      const add = count.unsent + 1;
      count.unsent = 0;
      send(key, count, add).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return SharedCounterStore;
}
