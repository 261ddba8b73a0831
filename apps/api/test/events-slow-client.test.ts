import type { FeedEvent } from '@mdq/db/feed';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectChainOrder, marketEventsOf, plannedEvents } from './support/devnet-events';
import { SseConsumer, until, WsConsumer } from './support/feed-consumers';
import { type LiveFeed, startLiveFeed } from './support/live-feed';

/**
 * Live events a stream may hold; the devnet moves in steps that stay below it for a reading client
 * (about 24 events a block: steps of 8 held the readers' queues at about 220 at most). Filling the
 * paused socket's few MB took 76 steps of 4 blocks and 50 of 8 (its buffers grow as it fills); each
 * step waits for the indexer, so the steps were the test's time, up to 4 minutes on a loaded machine.
 */
const MAX_QUEUE = 400;
const STEP_BLOCKS = 8;

/*
 * One SSE client stops reading its socket while an SSE and a WebSocket client keep reading, and the
 * devnet market goes on. The readers must get every event, sales included, while the paused one is
 * still stuck; the paused stream's live queue must stay within its bound (it is sent back to the
 * database instead of growing); once it reads again it must catch up with nothing missing or twice.
 */
describe('a slow consumer beside live ones', () => {
  let live: LiveFeed;

  beforeAll(async () => {
    live = await startLiveFeed({ seed: 45, feed: { maxQueue: MAX_QUEUE } });
  }, 120_000);
  afterAll(async () => {
    await live?.close();
  });

  it('the others get every event while it is stuck; it is sent back to the database, then catches up', {
    timeout: 300_000,
  }, async () => {
    const { devnet, chain, key } = live;
    const holdAll = async (consumers: FeedEvent[][]) =>
      (await Promise.all(consumers.map((e) => live.holdsTail(e)))).every(Boolean);
    await live.indexedTip();
    // The slow one opens first: sessionStats() lists streams in the order they opened.
    const slow = new SseConsumer(key);
    const fast = new SseConsumer(key);
    const ws = new WsConsumer(key);
    await slow.connect(live.base, { since: 'earliest' });
    await fast.connect(live.base, { since: 'earliest' });
    await ws.connect(live.base, { since: 'earliest' });
    const readers = () => [fast.got.events, ws.got.events];
    await until('history for all three', () => holdAll([slow.got.events, ...readers()]));

    slow.pause();
    const pausedAt = slow.got.events.length;
    const slowStream = () => live.app.liveFeed.sessionStats()[0];
    // The market moves in small steps, each one delivered in full to the readers, until the paused
    // stream's socket is full and its queue has overflowed (the kernel buffers a few MB first).
    let steps = 0;
    while ((slowStream()?.overflows ?? 0) === 0) {
      expect(steps++, 'steps before the paused stream overflowed').toBeLessThan(400);
      devnet.advance(STEP_BLOCKS);
      await live.indexedTip();
      await until('the readers to get the step', () => holdAll(readers()));
    }
    // The readers were never sent back to the database: the steps stayed within their queues.
    expect(
      live.app.liveFeed
        .sessionStats()
        .slice(1)
        .map((s) => s.overflows),
    ).toEqual([0, 0]);
    // A sale while the slow one is stuck reaches the readers in full.
    const saleFrom = devnet.ledgerVersion();
    await until('a live sale for the readers', async () => {
      const sold = plannedEvents(chain, devnet.ledgerVersion()).market.some(
        (e) => e.kind === 'listing_sold' && e.version > saleFrom,
      );
      if (!sold) {
        devnet.advance(1);
        await live.indexedTip();
      }
      return sold && (await holdAll(readers()));
    });
    const planned = plannedEvents(chain, devnet.ledgerVersion());
    for (const [who, events] of [
      ['fast sse', fast.got.events],
      ['ws', ws.got.events],
    ] as const) {
      expectChainOrder(events, who);
      expect(marketEventsOf(events), who).toEqual(planned.market);
    }
    // The paused client is behind (it took at most what its last read chunk held), and the server
    // held at most MAX_QUEUE live events for it.
    expect(slow.got.events.length).toBeLessThan(fast.got.events.length);
    expect(pausedAt).toBeLessThanOrEqual(slow.got.events.length);
    expect(slowStream()?.queueHighWater ?? 0).toBeLessThanOrEqual(MAX_QUEUE);
    expect(slowStream()?.queueHighWater ?? 0).toBeGreaterThan(0);

    slow.resume();
    await until('the slow client to catch up', () => live.holdsTail(slow.got.events), 120_000);
    expectChainOrder(slow.got.events, 'slow sse');
    expect(marketEventsOf(slow.got.events)).toEqual(planned.market);
    expect(slow.got.events.map((e) => e.id)).toEqual(fast.got.events.map((e) => e.id));
    for (const s of live.app.liveFeed.sessionStats()) expect(s.queueHighWater).toBeLessThanOrEqual(MAX_QUEUE);
    await Promise.all([slow.disconnect(), fast.disconnect(), ws.disconnect()]);
  });
});
