import { randomBytes } from 'node:crypto';
import type { Db } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { createRedis } from '@mdq/jobs';
import { requireTestRedis } from '@mdq/jobs/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';

export interface BullmqTest {
  /** The test Redis (REDIS_URL or the local one; the file fails in one line when none answers). */
  url: string;
  /** A queue prefix of the file's own, so parallel files never share jobs. */
  prefix: string;
  /** A connection for the test's own reads (queues, keys). */
  redis: Redis;
  /** The file's own database. */
  db: Db;
}

/**
 * What a worker test on BullMQ stands on: Redis, a prefix, a connection and a database, set up
 * before the file's tests and removed after them (the prefix's keys, the connection, the database).
 * The fields are read inside tests and hooks, once `beforeAll` has run.
 */
export function useBullmqTest(label: string): BullmqTest {
  const prefix = `mdq-${label}-${randomBytes(4).toString('hex')}`;
  let url: string | undefined;
  let redis: Redis | undefined;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    url = await requireTestRedis();
    redis = createRedis(url);
    database = await createTestDatabase();
  });
  afterAll(async () => {
    if (redis) {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
    await database?.drop();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useBullmqTest: read before beforeAll ran');
    return value;
  };
  return {
    prefix,
    get url() {
      return ready(url);
    },
    get redis() {
      return ready(redis);
    },
    get db() {
      return ready(database).db;
    },
  };
}
