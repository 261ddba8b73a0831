import http from 'node:http';
import { createApiKey } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../src/index';

const MARKET = 'https://market.example';
const PREVIEW = 'https://pr-7.preview.example';
const STRANGER = 'https://stranger.example';
const READ = '/local/api/rankings/recent-added';

/*
 * What a browser page may do with the API, request by request: CORS for MDQ_CORS_ORIGINS (exact and
 * `*.` patterns) and for the origins of publishable keys; a publishable key only from its own
 * origins, only on read routes, on its own per-visitor budget; the streams refuse a disallowed
 * Origin (the WebSocket upgrade included, which browsers do not guard).
 */
describe('browser access: CORS, origins and publishable keys', () => {
  let test: TestDatabase;
  let app: FastifyInstance;
  let base: string;
  let secret: string;
  let publishable: string;

  beforeAll(async () => {
    test = await createTestDatabase();
    app = await buildApp({
      db: test.db,
      network: 'local',
      corsOrigins: ['https://*.preview.example'],
      rateLimit: { perMinute: 1000, publishablePerMinute: 4 },
    });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    secret = (await createApiKey(test.db, { name: 'server' })).key;
    publishable = (await createApiKey(test.db, { name: 'page', publishableOrigins: [MARKET] })).key;
  });
  afterAll(async () => {
    await app?.close();
    await test?.drop();
  });

  const get = (url: string, headers: Record<string, string>, remoteAddress = '10.0.0.1') =>
    app.inject({ url, headers, remoteAddress });

  it("answers preflights for configured and publishable keys' origins, and not for others", async () => {
    const preflight = (origin: string) =>
      app.inject({
        method: 'OPTIONS',
        url: READ,
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-api-key,authorization',
        },
      });
    for (const origin of [MARKET, PREVIEW]) {
      const res = await preflight(origin);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(
        String(res.headers['access-control-allow-headers'])
          .split(',')
          .map((h) => h.trim()),
      ).toEqual(expect.arrayContaining(['x-api-key', 'authorization']));
      expect(String(res.headers.vary)).toMatch(/Origin/);
    }
    for (const origin of [STRANGER, 'https://preview.example', 'http://pr-7.preview.example']) {
      expect((await preflight(origin)).headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('exposes the freshness, ETag and rate-limit headers to an allowed page', async () => {
    const res = await get(READ, { 'x-api-key': secret, origin: PREVIEW });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(PREVIEW);
    expect(String(res.headers.vary)).toMatch(/Origin/);
    const exposed = String(res.headers['access-control-expose-headers'])
      .split(',')
      .map((h) => h.trim());
    expect(exposed).toEqual(
      expect.arrayContaining([
        'x-mdq-indexed-version',
        'x-mdq-cache',
        'etag',
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
      ]),
    );
    // What it exposes is really there.
    expect(res.headers['x-ratelimit-limit']).toBe('1000');
    expect(res.headers.etag).toBeDefined();
    expect(['hit', 'miss']).toContain(res.headers['x-mdq-cache']);
  });

  it('takes the key from Authorization: Bearer too (the header preflights allow)', async () => {
    const res = await get('/local/api/whoami', { authorization: `Bearer ${publishable}`, origin: MARKET });
    expect([res.statusCode, res.json().data.keyId]).toEqual([200, publishable.slice(7, 15)]);
    expect((await get('/local/api/whoami', { authorization: 'Bearer nope' })).statusCode).toBe(401);
  });

  it('refuses a secret key sent from a page on an origin it does not allow, and serves its own pages', async () => {
    const refused = await get(READ, { 'x-api-key': secret, origin: STRANGER });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    // The /docs page calls its own host.
    const host = new URL(base).host;
    expect((await get(READ, { 'x-api-key': secret, origin: `http://${host}`, host })).statusCode).toBe(200);
  });

  it('accepts a publishable key only from its own origins, never without an Origin', async () => {
    const ok = await get(READ, { 'x-api-key': publishable, origin: MARKET });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(MARKET);
    // Allowed for CORS (MDQ_CORS_ORIGINS), but not one of this key's origins.
    const elsewhere = await get(READ, { 'x-api-key': publishable, origin: PREVIEW });
    expect([elsewhere.statusCode, elsewhere.json().code]).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    const server = await get(READ, { 'x-api-key': publishable });
    expect([server.statusCode, server.json().code]).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    expect(server.json().message).toMatch(/servers use a secret key/);
  });

  it('refuses a publishable key on webhooks, exports and the utility writes', async () => {
    const headers = { 'x-api-key': publishable, origin: MARKET, 'content-type': 'application/json' };
    const attempts = [
      { method: 'GET', url: '/local/api/webhooks' },
      {
        method: 'POST',
        url: '/local/api/webhooks',
        payload: JSON.stringify({ url: 'https://hooks.example/x' }),
      },
      { method: 'GET', url: '/local/api/webhooks/1/deliveries' },
      { method: 'GET', url: '/local/api/export/listings' },
      { method: 'GET', url: '/local/export/listings' },
      { method: 'POST', url: '/local/api/validate-metadata', payload: '{}' },
      { method: 'GET', url: '/local/api/process-collection-uri-cache?collectionId=0x1' },
    ] as const;
    for (const attempt of attempts) {
      const res = await app.inject({ ...attempt, headers, remoteAddress: '10.0.0.9' });
      expect([attempt.url, res.statusCode, res.json().code]).toEqual([
        attempt.url,
        403,
        'SECRET_KEY_REQUIRED',
      ]);
    }
    // The same routes answer a secret key (no refusal of the route itself).
    const listed = await get('/local/api/webhooks', { 'x-api-key': secret });
    expect(listed.statusCode).toBe(200);
  });

  it("counts a publishable key per visitor at its own limit, apart from the secret key's budget", async () => {
    const headers = { 'x-api-key': publishable, origin: MARKET };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await get(READ, headers, '10.1.1.1')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    // Another visitor of the same page has a budget of its own; the secret key is untouched.
    const other = await get(READ, headers, '10.1.1.2');
    expect([other.statusCode, other.headers['x-ratelimit-limit']]).toEqual([200, '4']);
    const server = await get(READ, { 'x-api-key': secret }, '10.1.1.1');
    expect([server.statusCode, server.headers['x-ratelimit-limit']]).toEqual([200, '1000']);
  });

  it('refuses the event streams from a disallowed Origin: SSE with a 403, the WebSocket upgrade too', async () => {
    const stream = `${base}/local/api/events/stream?apiKey=${secret}`;
    expect(await statusOf(stream, STRANGER)).toBe(403);
    const allowed = await headersOf(stream, PREVIEW);
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe(PREVIEW);
    expect(allowed.headers['content-type']).toMatch(/text\/event-stream/);

    const ws = `${base.replace('http', 'ws')}/local/api/events/ws?apiKey=${secret}`;
    expect(await upgrade(ws, STRANGER)).toBe('refused 403');
    expect(await upgrade(ws, PREVIEW)).toBe('open');
    // A publishable key from its own page, and not from another.
    const pws = `${base.replace('http', 'ws')}/local/api/events/ws?apiKey=${publishable}`;
    expect(await upgrade(pws, MARKET)).toBe('open');
    expect(await upgrade(pws, PREVIEW)).toBe('refused 403');
  });
});

/** The status of a GET with this Origin (the body is not read: an event stream never ends). */
async function statusOf(url: string, origin: string): Promise<number> {
  return (await headersOf(url, origin)).status;
}

function headersOf(
  url: string,
  origin: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { origin } }, (res) => {
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
      res.destroy();
    });
    req.on('error', reject);
  });
}

function upgrade(url: string, origin: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { origin });
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_req, res) => {
      resolve(`refused ${res.statusCode}`);
      res.destroy();
    });
    socket.on('error', () => {});
  });
}
