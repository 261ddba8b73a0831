import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiKey } from '@mdq/db';
import type { FeedEvent } from '@mdq/db/feed';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium } from './support/chromium';
import { plannedEvents } from './support/devnet-events';
import { until } from './support/feed-consumers';
import { type LiveFeed, startLiveFeed } from './support/live-feed';

const present = chromiumAvailable();
const READ = '/local/api/rankings/recent-added';

/** A marketplace front end's host: serves one empty page, on its own port (its own origin). */
async function pageServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>market</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface PageResult {
  status?: number;
  body?: unknown;
  failure?: string;
}

/** The page's script: a cross-origin fetch with the key header (a preflighted request). */
function fetchFrom(page: Page, url: string, key: string): Promise<PageResult> {
  return page.evaluate(
    async ({ url, key }) => {
      try {
        const res = await fetch(url, { headers: { 'x-api-key': key } });
        return { status: res.status, body: await res.json() };
      } catch (error) {
        return { failure: String(error) };
      }
    },
    { url, key },
  );
}

/*
 * A front end as its developer builds it: a page on another origin reads the API with a
 * publishable key and follows the live feed with EventSource; the same page on an origin the key
 * does not list gets nothing (the browser refuses it), and the key outside a browser is refused.
 */
describe.skipIf(!present)('a page on another origin in Chromium, with a publishable key', () => {
  let live: LiveFeed;
  let browser: Browser;
  let listed: Awaited<ReturnType<typeof pageServer>>;
  let unlisted: Awaited<ReturnType<typeof pageServer>>;
  let publishable: string;

  beforeAll(async () => {
    listed = await pageServer();
    unlisted = await pageServer();
    live = await startLiveFeed({ seed: 41 });
    publishable = (
      await createApiKey(live.test.db, { name: 'market page', publishableOrigins: [listed.origin] })
    ).key;
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await live?.close();
    await listed?.close();
    await unlisted?.close();
  });

  it('reads a route and receives a live event from its listed origin', { timeout: 120_000 }, async () => {
    const { devnet, chain } = live;
    await live.indexedTip();
    const page = await browser.newPage();
    await page.goto(listed.origin);
    const read = await fetchFrom(page, `${live.origin}${READ}`, publishable);
    // What a server reads with the secret key, to the byte.
    const server = await fetch(`${live.origin}${READ}`, { headers: { 'x-api-key': live.key } });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(await server.json());
    expect((read.body as { data: unknown[] }).data.length).toBeGreaterThan(0);

    const before = devnet.ledgerVersion();
    await page.evaluate(
      ({ url }) => {
        const w = globalThis as unknown as { sales: string[]; opened: boolean };
        w.sales = [];
        w.opened = false;
        const source = new EventSource(url);
        source.onopen = () => {
          w.opened = true;
        };
        source.onmessage = (message) => w.sales.push(message.data);
      },
      { url: `${live.base}/events/stream?apiKey=${publishable}&kinds=listing_sold` },
    );
    await until('EventSource open', () =>
      page.evaluate(() => (globalThis as unknown as { opened: boolean }).opened),
    );
    const sales = () => page.evaluate(() => (globalThis as unknown as { sales: string[] }).sales);
    await until(
      'a live sale on the cross-origin page',
      async () => {
        if ((await sales()).length > 0) return true;
        devnet.advance(2);
        return false;
      },
      90_000,
    );
    const sale = JSON.parse((await sales())[0] ?? '{}') as FeedEvent;
    const planned = plannedEvents(chain, devnet.ledgerVersion()).market.find(
      (e) => e.kind === 'listing_sold' && e.version > before,
    );
    expect({ version: sale.version, kind: sale.kind, price: sale.price }).toEqual(planned);
    await page.close();
  });

  it('gets nothing on an origin the key does not list, and the key is refused outside a browser', async () => {
    const page = await browser.newPage();
    await page.goto(unlisted.origin);
    const read = await fetchFrom(page, `${live.origin}${READ}`, publishable);
    expect(read.status).toBeUndefined();
    expect(read.failure).toMatch(/TypeError: Failed to fetch/);
    const stream = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const source = new EventSource(url);
          source.onopen = () => resolve('open');
          source.onerror = () => resolve(source.readyState === EventSource.CLOSED ? 'closed' : 'retrying');
        }),
      `${live.base}/events/stream?apiKey=${publishable}`,
    );
    expect(stream).toBe('closed');
    await page.close();

    // curl: no Origin at all.
    const plain = await fetch(`${live.origin}${READ}`, { headers: { 'x-api-key': publishable } });
    expect(plain.status).toBe(403);
    expect(((await plain.json()) as { code: string }).code).toBe('ORIGIN_NOT_ALLOWED');
  });
});
