import { randomBytes } from 'node:crypto';
import { createApiKey } from '@mdq/db';
import { type LogLine, processLogger, recordingLogger, setProcessLogger } from '@mdq/log';
import { startWebhookDelivery } from '@mdq/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { until } from './support/feed-consumers';
import { type LiveFeed, startLiveFeed } from './support/live-feed';
import { WebhookReceiver } from './support/webhook-receiver';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const PAGE = 'https://market.example';

/*
 * A whole session at MDQ_LOG_LEVEL=trace — keys in headers and in `?apiKey=`, an SSE stream and a
 * WebSocket, failing requests, a publishable key from its page, the admin dashboard, a webhook
 * delivered after a failure — and then none of the credentials in anything logged (the API's, the
 * worker's and the process logger's lines) or in /metrics.
 */
describe('no credential in any log line or metric', () => {
  let live: LiveFeed;
  const lines: LogLine[] = [];
  const logger = recordingLogger((line) => lines.push(line));
  const previous = processLogger();
  const receiver = new WebhookReceiver();
  let webhooks: { close(): Promise<void> } | null = null;
  const adminKey = `admin-${randomBytes(16).toString('hex')}`;
  const prefix = `mdq-redact-${randomBytes(4).toString('hex')}`;
  let publishable: string;

  beforeAll(async () => {
    setProcessLogger(logger);
    live = await startLiveFeed({
      seed: 17,
      app: {
        logger: logger.child({ component: 'api' }, { level: 'trace' }),
        queueDashboard: { redisUrl: REDIS_URL, prefix, adminKey },
      },
    });
    publishable = (await createApiKey(live.test.db, { name: 'page', publishableOrigins: [PAGE] })).key;
    webhooks = await startWebhookDelivery({
      db: live.test.db,
      redisUrl: REDIS_URL,
      prefix,
      pollMs: 100,
      pauseAfter: 1_000,
      logger: logger.child({ component: 'worker' }, { level: 'trace' }),
      allowPrivateAddresses: ['127.0.0.1'],
    });
  }, 120_000);
  afterAll(async () => {
    await webhooks?.close();
    await receiver.close();
    await live?.close();
    setProcessLogger(previous);
  });

  it('keeps keys, webhook secrets and the admin key out of logs and /metrics', {
    timeout: 120_000,
  }, async () => {
    const { key, base, origin } = live;
    await live.indexedTip();
    const wrongKey = `mdq_0badc0de_${randomBytes(24).toString('base64url')}`;
    const call = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });

    // Headers: x-api-key, and a credential in `authorization` (ignored, never logged).
    expect((await call('/rankings/recent-added', { 'x-api-key': key })).status).toBe(200);
    expect((await call('/whoami', { 'x-api-key': key, authorization: `Bearer ${key}` })).status).toBe(200);
    // The publishable key from its page.
    expect((await call('/rankings/recent-added', { 'x-api-key': publishable, origin: PAGE })).status).toBe(
      200,
    );
    // Failing requests: a wrong key, a bad parameter, an unknown route, each with keys in the URL.
    expect((await call(`/events/stream?apiKey=${wrongKey}`)).status).toBe(401);
    expect((await call(`/events/stream?apiKey=${key}&since=yesterday`)).status).toBe(400);
    expect((await call(`/nowhere?apiKey=${key}`)).status).toBe(404);
    expect((await call(`/whoami?apiKey=${publishable}`, { 'x-api-key': publishable })).status).toBe(403);

    // SSE with ?apiKey=, reading its first bytes.
    const abort = new AbortController();
    const sse = await fetch(`${base}/events/stream?apiKey=${key}&since=earliest`, { signal: abort.signal });
    expect(sse.status).toBe(200);
    const reader = sse.body?.getReader();
    expect((await reader?.read())?.done).toBe(false);
    abort.abort();

    // WebSocket with ?apiKey=, one message.
    const socket = new WebSocket(`${base.replace('http', 'ws')}/events/ws?apiKey=${key}&since=earliest`);
    const first = await new Promise<string>((resolve, reject) => {
      socket.once('message', (data) => resolve(String(data)));
      socket.once('error', reject);
    });
    expect(JSON.parse(first)).toHaveProperty('id');
    socket.close();

    // The admin dashboard, with the admin key as a header and as basic auth.
    expect(
      (await fetch(`${origin}/admin/queues/api/queues`, { headers: { 'x-admin-key': adminKey } })).status,
    ).toBe(200);
    const basic = `Basic ${Buffer.from(`admin:${adminKey}`).toString('base64')}`;
    expect((await fetch(`${origin}/admin/queues`, { headers: { authorization: basic } })).status).toBe(200);

    // A webhook: registered (its secret in the answer), a failed delivery, then delivered.
    const hookUrl = await receiver.start();
    const registered = await fetch(`${base}/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ url: hookUrl, since: 'earliest', kinds: 'listing_sold' }),
    });
    expect(registered.status).toBe(201);
    const hookSecret = ((await registered.json()) as { data: { secret: string } }).data.secret;
    receiver.secret = hookSecret;
    // Shown once: the key's listing of its endpoints never carries the secret.
    const listing = await (await call('/webhooks', { 'x-api-key': key })).text();
    expect(listing).toContain('"endpointId"');
    expect(listing).not.toContain(hookSecret);
    receiver.failing = true;
    await until('a refused delivery', () => receiver.refused > 0);
    receiver.failing = false;
    await until('a delivered event', () => receiver.acknowledged.length > 0, 60_000);

    const metrics = await (await fetch(`${origin}/metrics`)).text();
    const logged = JSON.stringify(lines);
    // The session was logged at trace: request lines with their (redacted) URLs are there.
    expect(lines.some((l) => l.msg === 'incoming request')).toBe(true);
    expect(logged).toContain('/events/stream?apiKey=[redacted]');
    expect(metrics).toContain('mdq_http_requests_total');
    const secrets = { key, publishable, wrongKey, hookSecret, adminKey, basic: basic.slice(6) };
    for (const [name, secret] of Object.entries(secrets)) {
      expect({ name, inLogs: logged.includes(secret), inMetrics: metrics.includes(secret) }).toEqual({
        name,
        inLogs: false,
        inMetrics: false,
      });
      // Nor the part after a key's id, on its own.
      const tail = secret.slice(-20);
      expect([name, logged.includes(tail) || metrics.includes(tail)]).toEqual([name, false]);
    }
  });
});
