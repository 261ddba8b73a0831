import { describe, expect, it } from 'vitest';
import { FeedSession, type FeedSessionOptions } from '../src/feed/feed-session';

/*
 * A stream waits for its client to drain many times a second for as long as it is open. Each wait
 * must leave nothing behind once it settles: racing every wait against one promise that settles at
 * close kept a reaction per wait alive until then, and the 60-minute soak's API heap grew 70 MB an
 * hour with 100 streams. `until` and `close` need no hub or database.
 */
function session(): FeedSession {
  return new FeedSession({ filter: {}, after: null, maxQueue: 10 } as unknown as FeedSessionOptions);
}

describe('FeedSession.until', () => {
  it('keeps nothing of a wait once it settles, however many there were', async () => {
    const s = session();
    for (let i = 0; i < 10_000; i++) await s.until(Promise.resolve());
    // A failed wait (the socket errored) settles too.
    await s.until(Promise.reject(new Error('reset')));
    expect(s.pendingWaits).toBe(0);
  });

  it('ends a wait that would never settle when the session closes, and every later one at once', async () => {
    const s = session();
    let ended = false;
    const stuck = s.until(new Promise(() => undefined)).then(() => {
      ended = true;
    });
    expect(s.pendingWaits).toBe(1);
    await Promise.resolve();
    expect(ended).toBe(false);
    s.close();
    await stuck;
    expect(ended).toBe(true);
    expect(s.pendingWaits).toBe(0);
    await s.until(new Promise(() => undefined));
    expect(s.pendingWaits).toBe(0);
  });
});
