import { randomBytes } from 'node:crypto';
import type { FeedEvent, FeedKind } from '@mdq/db/feed';
import { FEED_RANKING_TOP, startWebhookDelivery } from '@mdq/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectChainOrder,
  floorEventsOf,
  MARKET_KINDS,
  marketEventsOf,
  plannedEvents,
} from './support/devnet-events';
import { SseConsumer, until, WsConsumer } from './support/feed-consumers';
import { type LiveFeed, startLiveFeed } from './support/live-feed';
import { RankingRuns, rankingMovesOf } from './support/ranking-moves';
import { WebhookReceiver } from './support/webhook-receiver';

/** The webhook's filter: market and lootbox events, floor and ranking changes (not token moves). */
const HOOK_KINDS = new Set([...MARKET_KINDS, 'floor_changed', 'ranking_changed']);

/*
 * A live devnet market, followed by the real indexer, streamed by the API to an SSE and a
 * WebSocket consumer that are cut off, resumed, and moved across an API restart, and delivered to
 * a webhook receiver that fails for a while. The worker's trending and top rankings run between
 * the steps (while everyone listens, while they are cut off, while the API is down). What they got
 * is compared with the devnet simulator's own plans, version by version, and with the ranking
 * moves seen by comparing each ranking before and after its run.
 */
describe('live event feed over a live devnet', () => {
  let live: LiveFeed;
  const receiver = new WebhookReceiver();
  let webhooks: { close(): Promise<void> } | null = null;

  beforeAll(async () => {
    live = await startLiveFeed({ seed: 21 });
    webhooks = await startWebhookDelivery({
      db: live.test.db,
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
    await live?.close();
  });

  it('delivers exactly the devnet events, in order, across disconnects and an API restart', {
    timeout: 240_000,
  }, async () => {
    const { devnet, chain, key, indexedTip } = live;
    const rankings = new RankingRuns(live.test.db, FEED_RANKING_TOP);
    const sse = new SseConsumer(key);
    const ws = new WsConsumer(key);
    await indexedTip();
    await sse.connect(live.base, { since: 'earliest' });
    await ws.connect(live.base, { since: 'earliest' });
    const hookUrl = await receiver.start();
    const registered = await fetch(`${live.base}/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ url: hookUrl, since: 'earliest', kinds: [...HOOK_KINDS].join(',') }),
    });
    expect(registered.status).toBe(201);
    receiver.secret = ((await registered.json()) as { data: { secret: string } }).data.secret;
    // Complete: up to the database's last event at the indexed tip, and every ranking move so far.
    const ranked = (events: FeedEvent[]) => rankingMovesOf(events).length >= rankings.expected.length;
    const done = async (events: FeedEvent[]) => ranked(events) && (await live.holdsTail(events));
    const all = () => [sse.got.events, ws.got.events];
    const hookFilter = { kinds: HOOK_KINDS as ReadonlySet<FeedKind> };
    const hooked = async () =>
      ranked(receiver.acknowledged) && (await live.holdsTail(receiver.acknowledged, hookFilter));
    const allDone = async () => (await Promise.all(all().map(done))).every(Boolean) && (await hooked());
    // No ranking has run yet, so `ranked` holds trivially here.
    await until('history caught up', allDone);

    // Rankings move while everyone listens and the chain stands still: the rows land at the
    // checkpoint's version, behind nothing the feed has handed out, and arrive live.
    await rankings.run();
    expect(rankings.expected.length).toBeGreaterThan(0);
    await until('live ranking changes', allDone);

    // Live blocks while both listen.
    devnet.advance(6);
    await indexedTip();
    await rankings.run();
    await until('live blocks', allDone);

    // Cut both off and make the webhook receiver fail; the chain moves on; they resume from their last ids.
    receiver.failing = true;
    await sse.disconnect();
    await ws.disconnect();
    devnet.advance(6);
    await indexedTip();
    await rankings.run();
    await sse.connect(live.base);
    await ws.connect(live.base);
    devnet.advance(6);
    await indexedTip();
    await until(
      'resume after a cut',
      async () => (await done(sse.got.events)) && (await done(ws.got.events)),
    );
    await until('webhook deliveries refused', () => receiver.refused >= 3);

    // API restart: the old process ends every stream; the chain moves while it is down. The new
    // process buffers only 3 live events per consumer, so a live burst sends both back to the
    // database mid-stream (the slow-consumer path) and they must still see each event once.
    await live.stopApi();
    await Promise.all([sse.ended(), ws.ended()]);
    devnet.advance(6);
    await indexedTip();
    await rankings.run();
    await live.restart({ maxQueue: 3 });
    receiver.failing = false;
    await sse.connect(live.base);
    await ws.connect(live.base);
    devnet.advance(10);
    await indexedTip();
    await rankings.run();
    await until('after the restart', allDone, 120_000);

    const tip = devnet.ledgerVersion();
    const planned = plannedEvents(chain, tip);
    expect(planned.market.length).toBeGreaterThan(50);
    expect(planned.floors.length).toBeGreaterThan(10);
    expect(receiver.badSignatures).toBe(0);
    const moves = rankings.expected;
    // Not only the first run's entries: later runs moved collections that were already ranked.
    expect(rankings.perRun.slice(1).some((n) => n > 0)).toBe(true);
    expect(moves.some((m) => m.rank !== null && m.previousRank !== null)).toBe(true);
    expect(new Set(moves.map((m) => m.ranking))).toEqual(new Set(['trending', 'top']));
    for (const [who, events] of [
      ['sse', sse.got.events],
      ['ws', ws.got.events],
      ['webhook', receiver.acknowledged],
    ] as const) {
      expectChainOrder(events, who);
      expect(marketEventsOf(events), who).toEqual(planned.market);
      expect(floorEventsOf(events, who), who).toEqual(planned.floors);
      expect(rankingMovesOf(events), who).toEqual(moves);
      for (const e of events) expect(e.id, who).toBe(`${e.version}:${e.eventIndex}`);
      if (who === 'webhook') {
        // Registered without the token kinds: the filter holds.
        expect(
          events.every((e) => HOOK_KINDS.has(e.kind)),
          who,
        ).toBe(true);
        continue;
      }
      expect(events.filter((e) => e.kind === 'mint').length, who).toBe(planned.mints);
      expect(events.filter((e) => e.kind === 'burn').length, who).toBe(planned.burns);
    }
    expect(sse.connections).toBe(3);
    expect(ws.connections).toBe(3);
    await sse.disconnect();
    await ws.disconnect();

    // Resuming in the middle of a run's ranking rows: from the event before a ranking row, and
    // from a ranking row itself (which must not come again), over both transports.
    const whole = sse.got.events;
    const middle = whole.findIndex(
      (e, i) => i > 0 && e.kind === 'ranking_changed' && whole[i + 1]?.kind === 'ranking_changed',
    );
    expect(middle).toBeGreaterThan(0);
    for (const from of [middle - 1, middle]) {
      const since = (whole[from] as FeedEvent).id;
      const again = [new SseConsumer(key), new WsConsumer(key)] as const;
      for (const c of again) await c.connect(live.base, { since });
      await until(`resume from ${since}`, () =>
        again.every((c) => c.got.events.length >= whole.length - from - 1),
      );
      for (const c of again) {
        await c.disconnect();
        expect(c.got.events, `resumed from ${since}`).toEqual(whole.slice(from + 1));
      }
    }
  });
});
