import { randomBytes } from 'node:crypto';
import { createApiKey } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { requireTestRedis } from '@mdq/jobs/testing';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/index';

describe('rate limits per API key', () => {
  let test: TestDatabase;
  let app: FastifyInstance;
  let key: string;
  let generous: string;

  beforeAll(async () => {
    test = await createTestDatabase();
    app = await buildApp({ db: test.db, network: 'local', rateLimit: { perMinute: 3 } });
    key = (await createApiKey(test.db, { name: 'default limit' })).key;
    generous = (await createApiKey(test.db, { name: 'own limit', rateLimitPerMinute: 5 })).key;
  });
  afterAll(async () => {
    await app.close();
    await test.drop();
  });

  it('answers 429 with retry-after and the error envelope past the limit, across both path forms', async () => {
    const urls = [
      '/local/api/rankings/recent-added',
      '/local/rankings/recent-added',
      '/local/api/rankings/recent-added',
    ];
    const remaining: string[] = [];
    for (const url of urls) {
      const res = await app.inject({ url, headers: { 'x-api-key': key } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      remaining.push(String(res.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await app.inject({ url: '/local/rankings/recent-added', headers: { 'x-api-key': key } });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      code: 'RATE_LIMITED',
    });
    expect(limited.json().message).toMatch(/rate limit of 3 requests per minute exceeded/);
  });

  it("uses a key's own limit and never limits health", async () => {
    for (let i = 0; i < 5; i++) {
      expect(
        (await app.inject({ url: '/local/api/rankings/recent-added', headers: { 'x-api-key': generous } }))
          .statusCode,
      ).toBe(200);
    }
    expect(
      (await app.inject({ url: '/local/api/rankings/recent-added', headers: { 'x-api-key': generous } }))
        .statusCode,
    ).toBe(429);
    for (let i = 0; i < 10; i++) expect((await app.inject('/health')).statusCode).toBe(200);
  });

  it('counts the requests the response cache answers', async () => {
    const cachedKey = (await createApiKey(test.db, { name: 'cached reads', rateLimitPerMinute: 2 })).key;
    const url = '/local/api/rankings/trending-collections';
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) {
      codes.push((await app.inject({ url, headers: { 'x-api-key': cachedKey } })).statusCode);
    }
    expect(codes).toEqual([200, 200, 429]);
  });

  it('shares one budget between replicas through Redis', async () => {
    const url = await requireTestRedis();
    const redisA = new Redis(url);
    const redisB = new Redis(url);
    const shared = (await createApiKey(test.db, { name: `replicas-${randomBytes(3).toString('hex')}` })).key;
    const a = await buildApp({ db: test.db, network: 'local', rateLimit: { perMinute: 4, redis: redisA } });
    const b = await buildApp({ db: test.db, network: 'local', rateLimit: { perMinute: 4, redis: redisB } });
    const codes: number[] = [];
    for (const replica of [a, b, a, b, a]) {
      codes.push(
        (await replica.inject({ url: '/local/api/rankings/recent-added', headers: { 'x-api-key': shared } }))
          .statusCode,
      );
    }
    expect(codes).toEqual([200, 200, 200, 200, 429]);

    // Far below the limit each replica answers from its own count and sends it to Redis
    // afterwards; from half the limit on every request waits for Redis: still one budget, exactly.
    const busy = await createApiKey(test.db, { name: 'busy', rateLimitPerMinute: 40 });
    const busyCodes: number[] = [];
    for (let i = 0; i < 60; i++) {
      const replica = i % 2 === 0 ? a : b;
      const res = await replica.inject({
        url: '/local/api/rankings/recent-added',
        headers: { 'x-api-key': busy.key },
      });
      busyCodes.push(res.statusCode);
    }
    expect(busyCodes).toEqual([...Array(40).fill(200), ...Array(20).fill(429)]);
    // Every request reached the shared count, the ones answered without waiting included.
    await vi.waitFor(async () => expect(await redisA.get(`mdq-rate-limit:${busy.keyId}`)).toBe('60'));

    await a.close();
    await b.close();
    const keys = await redisA.keys('mdq-rate-limit:*');
    if (keys.length > 0) await redisA.del(...keys);
    redisA.disconnect();
    redisB.disconnect();
  });
});
