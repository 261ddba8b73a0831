import { createApiKey, type FeedEvent, latestIndexedVersion } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { fullnodeSource, runIndexer } from '@mdq/indexer';
import { devnetDecoder } from '@mdq/indexer/testing';
import { noopNotifier } from '@mdq/jobs';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';
import { chromiumAvailable, launchChromium } from './support/chromium';
import { plannedEvents } from './support/devnet-events';
import { until } from './support/feed-consumers';

const present = chromiumAvailable();

/* A real browser's EventSource on the stream (key in the query string), receiving a live sale. */
describe.skipIf(!present)('event stream in Chromium', () => {
  let devnet: DevnetServer;
  let test: TestDatabase;
  let app: FastifyInstance;
  let browser: Browser;
  let origin: string;
  let key: string;
  const stop = new AbortController();
  let indexing: Promise<unknown> = Promise.resolve();

  beforeAll(async () => {
    devnet = await startDevnetServer({ port: 0, seed: 33, preset: 'tiny', blockIntervalMs: 0 });
    test = await createTestDatabase();
    key = (await createApiKey(test.db, { name: 'browser' })).key;
    indexing = runIndexer({
      db: test.db,
      source: fullnodeSource(devnet.url),
      decode: devnetDecoder(devnet),
      notifier: noopNotifier,
      batchSize: 200,
      pollMs: 50,
      maxPollMs: 100,
      signal: stop.signal,
    }).catch(() => {});
    app = await buildApp({ db: test.db, network: 'local', feed: { pollMs: 50 } });
    origin = await app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    stop.abort();
    await indexing;
    await app?.close();
    await devnet?.close();
    await test?.drop();
  });

  it('receives a live sale through EventSource', { timeout: 120_000 }, async () => {
    const chain = devnet.chain;
    if (!chain) throw new Error('generated devnet expected');
    await until(
      'initial chain indexed',
      async () => (await latestIndexedVersion(test.db)) === devnet.ledgerVersion(),
    );
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
