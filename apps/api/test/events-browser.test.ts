import type { FeedEvent } from '@mdq/db/feed';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium } from './support/chromium';
import { plannedEvents } from './support/devnet-events';
import { until } from './support/feed-consumers';
import { type LiveFeed, startLiveFeed } from './support/live-feed';

const present = chromiumAvailable();

/* A real browser's EventSource on the stream (key in the query string), receiving a live sale. */
describe.skipIf(!present)('event stream in Chromium', () => {
  let live: LiveFeed;
  let browser: Browser;

  beforeAll(async () => {
    live = await startLiveFeed({ seed: 33 });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await live?.close();
  });

  it('receives a live sale through EventSource', { timeout: 120_000 }, async () => {
    const { devnet, chain, key, origin } = live;
    await live.indexedTip();
    const before = devnet.ledgerVersion();
    const page = await browser.newPage();
    await page.goto(`${origin}/health`);
    await page.evaluate(
      ({ key }) => {
        const w = globalThis as unknown as { sales: string[]; opened: boolean };
        w.sales = [];
        w.opened = false;
        const source = new EventSource(`/local/api/events/stream?apiKey=${key}&kinds=listing_sold`);
        source.onopen = () => {
          w.opened = true;
        };
        source.onmessage = (message) => {
          w.sales.push(message.data);
        };
      },
      { key },
    );
    await until('EventSource open', () =>
      page.evaluate(() => (globalThis as unknown as { opened: boolean }).opened),
    );
    // Live blocks until the devnet sells a listing.
    const sales = () => page.evaluate(() => (globalThis as unknown as { sales: string[] }).sales);
    await until(
      'a live sale in the browser',
      async () => {
        if ((await sales()).length > 0) return true;
        devnet.advance(2);
        return false;
      },
      90_000,
    );
    const sale = JSON.parse((await sales())[0] ?? '{}') as FeedEvent;
    expect(sale.version).toBeGreaterThan(before);
    const planned = plannedEvents(chain, devnet.ledgerVersion()).market.find(
      (e) => e.kind === 'listing_sold' && e.version > before,
    );
    expect({ version: sale.version, kind: sale.kind, price: sale.price }).toEqual(planned);
    await page.close();
  });
});
