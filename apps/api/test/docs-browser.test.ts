import { createApiKey } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';
import { chromiumAvailable, launchChromium } from './support/chromium';

// .ci/run installs Debian's chromium; a local machine without it skips, CI never does.
const available = chromiumAvailable();

/* The docs page as a person uses it: a real browser enters a key once, runs a request, reads the answer. */
describe.skipIf(!available)('the /docs page in Chromium', () => {
  let test: TestDatabase;
  let app: FastifyInstance;
  let browser: Browser;
  let url: string;
  let key: string;

  beforeAll(async () => {
    test = await createTestDatabase();
    app = await buildApp({ db: test.db, network: 'local' });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    key = (await createApiKey(test.db, { name: 'docs' })).key;
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await test?.drop();
  });

  it('authorizes with an API key and runs a request from the page', async () => {
    const page = await browser.newPage();
    await page.goto(`${url}/docs`);
    // One path form is listed: the /api one, not its alias.
    await page.locator('.opblock-summary-path').first().waitFor();
    const paths = await page.locator('.opblock-summary-path').allInnerTexts();
    expect(paths.some((p) => p.includes('/local/api/rankings/trending-collections'))).toBe(true);
    expect(paths.some((p) => p.replace(/\u200b/g, '').startsWith('/local/rankings'))).toBe(false);

    await page.locator('button.authorize').first().click();
    await page.locator('.modal-ux input').first().fill(key);
    await page.locator('.modal-ux button.modal-btn.auth.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    const operation = page.locator('.opblock', {
      has: page.locator('.opblock-summary-path', { hasText: '/local/api/rankings/trending-collections' }),
    });
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.execute').click();
    const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('200');
    const body = await operation
      .locator('.live-responses-table .response-col_description pre')
      .first()
      .textContent();
    expect(JSON.parse(body ?? 'null')).toMatchObject({ data: [], pagination: { page: 1 } });
    await page.screenshot({ path: `${process.env['TMPDIR'] ?? '/tmp'}/mdq-docs.png`, fullPage: false });
  });
});
