import { randomBytes } from 'node:crypto';
import { createApiKey } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { QUEUE_NAMES } from '@mdq/jobs';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';
import { chromiumAvailable, launchChromium } from './support/chromium';

const present = chromiumAvailable();
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** Every content-security-policy violation the page reports, from the DOM event and the console. */
async function recordViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction('__cspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    // In the page: `document` and its violation event (this package compiles without the DOM types).
    type Violation = { violatedDirective: string; blockedURI: string };
    const page = globalThis as unknown as {
      document: { addEventListener(type: string, listener: (event: Violation) => void): void };
      __cspViolation(text: string): void;
    };
    page.document.addEventListener('securitypolicyviolation', (event) => {
      page.__cspViolation(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return violations;
}

/* The HTML pages under helmet's headers: both render in Chromium with no CSP violation. */
describe.skipIf(!present)('security headers on the HTML pages, in Chromium', () => {
  let test: TestDatabase;
  let app: FastifyInstance;
  let browser: Browser;
  let url: string;
  let redis: Redis;
  let queue: Queue;
  const prefix = `mdq-csp-${randomBytes(4).toString('hex')}`;
  const adminKey = randomBytes(16).toString('hex');

  beforeAll(async () => {
    test = await createTestDatabase();
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    queue = new Queue(QUEUE_NAMES.uriCache, { connection: redis, prefix });
    await queue.add('resolve', { collectionId: 'x' }, { jobId: 'csp-1' });
    app = await buildApp({
      db: test.db,
      network: 'local',
      queueDashboard: { redisUrl: REDIS_URL, prefix, adminKey },
    });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await queue?.obliterate({ force: true });
    await queue?.close();
    redis?.disconnect();
    await test?.drop();
  });

  it('sends the CSP on the pages only, never on the JSON routes', async () => {
    const docs = await fetch(`${url}/docs/static/index.html`);
    expect(docs.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(docs.headers.get('x-content-type-options')).toBe('nosniff');
    const key = (await createApiKey(test.db, { name: 'csp' })).key;
    const json = await fetch(`${url}/local/api/rankings/recent-added`, { headers: { 'x-api-key': key } });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-security-policy')).toBeNull();
    expect(json.headers.get('cross-origin-resource-policy')).toBeNull();
  });

  it('renders the /docs page with no CSP violation', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    const violations = await recordViolations(page);
    await page.goto(`${url}/docs`);
    await page.locator('.opblock-summary-path').first().waitFor();
    expect(await page.locator('.opblock-summary-path').count()).toBeGreaterThan(10);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('renders the queue dashboard with no CSP violation', { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ httpCredentials: { username: 'admin', password: adminKey } });
    const page = await context.newPage();
    const violations = await recordViolations(page);
    const response = await page.goto(`${url}/admin/queues`);
    expect(response?.headers()['content-security-policy']).toMatch(/default-src 'self'/);
    await page.getByText(QUEUE_NAMES.uriCache).first().waitFor();
    expect(violations).toEqual([]);
    await context.close();
  });
});
