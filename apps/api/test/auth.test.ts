import { createApiKey } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

describe('API conventions', () => {
  let test: TestDatabase;
  let app: FastifyInstance;
  let key: string;

  beforeAll(async () => {
    test = await createTestDatabase();
    app = await buildApp({ db: test.db, network: 'local' });
    key = (await createApiKey(test.db, { name: 'test' })).key;
  });
  afterAll(async () => {
    await app.close();
    await test.drop();
  });

  it('serves health and readiness without a key', async () => {
    expect((await app.inject('/health')).json()).toMatchObject({ status: 'ok', network: 'local' });
    const ready = await app.inject('/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', database: true });
  });

  it('answers 401 with the envelope for a missing or unknown key', async () => {
    const missing = await app.inject('/local/api/whoami');
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      code: 'MISSING_API_KEY',
      message: "missing 'x-api-key' header",
    });
    const unknown = await app.inject({ url: '/local/whoami', headers: { 'x-api-key': 'nope' } });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().code).toBe('INVALID_API_KEY');
  });

  it('serves both path forms for a valid key and 404s another network', async () => {
    for (const url of ['/local/api/whoami', '/local/whoami']) {
      const res = await app.inject({ url, headers: { 'x-api-key': key } });
      expect(res.statusCode).toBe(200);
    }
    const other = await app.inject({ url: '/mainnet/api/whoami', headers: { 'x-api-key': key } });
    expect(other.statusCode).toBe(404);
    expect(other.json().code).toBe('ROUTE_NOT_FOUND');
  });

  it('serves an OpenAPI 3 document and the docs page', async () => {
    const doc = (await app.inject('/openapi.json')).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect((await app.inject('/docs')).statusCode).toBeLessThan(400);
  });
});
