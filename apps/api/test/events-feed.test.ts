import { randomBytes } from 'node:crypto';
import { createApiKey, type FeedEvent, latestIndexedVersion } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { fullnodeSource, runIndexer } from '@mdq/indexer';
import { devnetDecoder } from '@mdq/indexer/testing';
import { noopNotifier } from '@mdq/jobs';
import { startWebhookDelivery } from '@mdq/worker';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';
import { plannedEvents } from './support/devnet-events';
import { SseConsumer, until, WsConsumer } from './support/feed-consumers';
import { WebhookReceiver } from './support/webhook-receiver';

const MARKET_KINDS = new Set([
  'listing_placed',
  'listing_cancelled',
  'listing_sold',
  'token_offer_placed',
  'token_offer_cancelled',
  'token_offer_filled',
  'collection_offer_placed',
  'collection_offer_cancelled',
  'collection_offer_filled',
  'lootbox_purchased',
  'lootbox_opened',
]);

/** Strictly increasing `<version>:<eventIndex>`: chain order, and no event twice. */
function expectChainOrder(events: FeedEvent[], who: string) {
  for (let i = 1; i < events.length; i++) {
    const a = events[i - 1] as FeedEvent;
    const b = events[i] as FeedEvent;
    const increasing = b.version > a.version || (b.version === a.version && b.eventIndex > a.eventIndex);
    expect(increasing, `${who}: ${a.id} then ${b.id}`).toBe(true);
  }
}

/*
 * A live devnet market, followed by the real indexer, streamed by the API to an SSE and a
 * WebSocket consumer that are cut off, resumed, and moved across an API restart. What they got is
 * compared with the devnet simulator's own plans, version by version.
 */
describe('live event feed over a live devnet', () => {
  let devnet: DevnetServer;
  let test: TestDatabase;
  let key: string;
  let app: FastifyInstance | null = null;
  let base = '';
  const stopIndexer = new AbortController();
  let indexing: Promise<unknown> = Promise.resolve();
  const receiver = new WebhookReceiver();
  let webhooks: { close(): Promise<void> } | null = null;

  const start = async (feed: { maxQueue?: number } = {}) => {
    app = await buildApp({ db: test.db, network: 'local', feed: { pollMs: 50, ...feed } });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    base = `${address}/local/api`;
  };
  const indexedTip = () =>
    until(
      'the indexer to reach the devnet tip',
      async () => (await latestIndexedVersion(test.db)) === devnet.ledgerVersion(),
    );
  const reached = (events: FeedEvent[], version: number) => (events.at(-1)?.version ?? -1) >= version;

  beforeAll(async () => {
    devnet = await startDevnetServer({ port: 0, seed: 21, preset: 'tiny', blockIntervalMs: 0 });
    test = await createTestDatabase();
    key = (await createApiKey(test.db, { name: 'feed' })).key;
    indexing = runIndexer({
      db: test.db,
      source: fullnodeSource(devnet.url),
      decode: devnetDecoder(devnet),
      notifier: noopNotifier,
      batchSize: 200,
      pollMs: 50,
      maxPollMs: 100,
      signal: stopIndexer.signal,
    }).catch(() => {});
    await start();
    webhooks = await startWebhookDelivery({
      db: test.db,
      redisUrl: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
      prefix: `mdq-feed-${randomBytes(4).toString('hex')}`,
      pollMs: 100,
      pauseAfter: 1_000,
      // The receiver runs on loopback, which the SSRF guard refuses unless allowed.
      allowPrivateAddresses: ['127.0.0.1'],
    });
  }, 120_000);

  afterAll(async () => {
    await webhooks?.close();
    await receiver.close();
    stopIndexer.abort();
    await indexing;
    await app?.close();
    await devnet?.close();
    await test?.drop();
  });

  it('delivers exactly the devnet events, in order, across disconnects and an API restart', {
    timeout: 180_000,
  }, async () => {
    const chain = devnet.chain;
    if (!chain) throw new Error('generated devnet expected');
    const sse = new SseConsumer(key);
    const ws = new WsConsumer(key);
    await indexedTip();
    await sse.connect(base, { since: 'earliest' });
    await ws.connect(base, { since: 'earliest' });
    const hookUrl = await receiver.start();
    const registered = await fetch(`${base}/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ url: hookUrl, since: 'earliest', kinds: [...MARKET_KINDS].join(',') }),
    });
    expect(registered.status).toBe(201);
    receiver.secret = ((await registered.json()) as { data: { secret: string } }).data.secret;
    const all = () => [sse.got.events, ws.got.events];
    const hooked = () => reached(receiver.acknowledged, lastMarketOnly());
    const lastMarket = () => plannedEvents(chain, devnet.ledgerVersion()).lastEventVersion;
    const lastMarketOnly = () => plannedEvents(chain, devnet.ledgerVersion()).market.at(-1)?.version ?? 0;
    await until('history caught up', () => all().every((e) => reached(e, lastMarket())) && hooked());

    // Live blocks while both listen.
    devnet.advance(6);
    await indexedTip();
    await until('live blocks', () => all().every((e) => reached(e, lastMarket())) && hooked());

    // Cut both off and make the webhook receiver fail; the chain moves on; they resume from their last ids.
    receiver.failing = true;
    await sse.disconnect();
    await ws.disconnect();
    devnet.advance(6);
    await indexedTip();
    await sse.connect(base);
    await ws.connect(base);
    devnet.advance(6);
    await indexedTip();
    await until(
      'resume after a cut',
      () => reached(sse.got.events, lastMarket()) && reached(ws.got.events, lastMarket()),
    );
    await until('webhook deliveries refused', () => receiver.refused >= 3);

    // API restart: the old process ends every stream; the chain moves while it is down. The new
    // process buffers only 3 live events per consumer, so a live burst sends both back to the
    // database mid-stream (the slow-consumer path) and they must still see each event once.
    await app?.close();
    await Promise.all([sse.ended(), ws.ended()]);
    devnet.advance(6);
    await start({ maxQueue: 3 });
    receiver.failing = false;
    await sse.connect(base);
    await ws.connect(base);
    devnet.advance(10);
    await indexedTip();
    await until('after the restart', () => all().every((e) => reached(e, lastMarket())) && hooked(), 120_000);

    const tip = devnet.ledgerVersion();
    const planned = plannedEvents(chain, tip);
    expect(planned.market.length).toBeGreaterThan(50);
    expect(receiver.badSignatures).toBe(0);
    for (const [who, events] of [
      ['sse', sse.got.events],
      ['ws', ws.got.events],
      ['webhook', receiver.acknowledged],
    ] as const) {
      expectChainOrder(events, who);
      const market = events
        .filter((e) => MARKET_KINDS.has(e.kind))
        .map((e) => ({
          version: e.version,
          kind: e.kind,
          price: e.kind === 'lootbox_opened' ? null : e.price,
        }));
      expect(market, who).toEqual(planned.market);
      if (who === 'webhook') {
        // Registered with the market and lootbox kinds only: the filter holds.
        expect(
          events.every((e) => MARKET_KINDS.has(e.kind)),
          who,
        ).toBe(true);
        continue;
      }
      expect(events.filter((e) => e.kind === 'mint').length, who).toBe(planned.mints);
      expect(events.filter((e) => e.kind === 'burn').length, who).toBe(planned.burns);
      for (const e of events) expect(e.id, who).toBe(`${e.version}:${e.eventIndex}`);
    }
    expect(sse.connections).toBe(3);
    expect(ws.connections).toBe(3);
    await sse.disconnect();
    await ws.disconnect();
  });
});
