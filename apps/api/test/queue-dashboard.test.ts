import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { QUEUE_NAMES } from '@mdq/jobs';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/* The queue dashboard on a real Redis: the worker's queues, behind the admin key. */
describe('queue dashboard at /admin/queues', () => {
  let test: TestDatabase;
  let app: FastifyInstance;
  let redis: Redis;
  let queue: Queue;
  const prefix = `mdq-dash-${randomBytes(4).toString('hex')}`;
  const adminKey = randomBytes(16).toString('hex');

  beforeAll(async () => {
    test = await createTestDatabase();
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    queue = new Queue(QUEUE_NAMES.uriCache, { connection: redis, prefix });
    await queue.add('resolve', { collectionId: 'x' }, { jobId: 'dash-1' });
    app = await buildApp({
      db: test.db,
      network: 'local',
      queueDashboard: { redisUrl: REDIS_URL, prefix, adminKey },
    });
  });
  afterAll(async () => {
    await app?.close();
    await queue?.obliterate({ force: true });
    await queue?.close();
    redis?.disconnect();
    await test?.drop();
  });

  it('refuses without the admin key, and an API-style key is not enough', async () => {
    const none = await app.inject('/admin/queues');
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toContain('Basic');
    expect(none.json().code).toBe('INVALID_ADMIN_KEY');
    const wrong = await app.inject({
      url: '/admin/queues/api/queues',
      headers: { 'x-admin-key': 'x'.repeat(32) },
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('serves the page and the queues with their jobs to the admin key (header or basic auth)', async () => {
    const page = await app.inject({ url: '/admin/queues', headers: { 'x-admin-key': adminKey } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const basic = `Basic ${Buffer.from(`admin:${adminKey}`).toString('base64')}`;
    const api = await app.inject({ url: '/admin/queues/api/queues', headers: { authorization: basic } });
    expect(api.statusCode).toBe(200);
    const queues = api.json().queues as { name: string; counts: Record<string, number> }[];
    expect(queues.map((q) => q.name).sort()).toEqual(Object.values(QUEUE_NAMES).sort());
    const uri = queues.find((q) => q.name === QUEUE_NAMES.uriCache);
    expect(uri?.counts['waiting']).toBe(1);
  });
});
