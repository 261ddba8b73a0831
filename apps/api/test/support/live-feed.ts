import { createApiKey, feedIndexedVersion } from '@mdq/db';
import {
  comparePositions,
  FEED_START,
  type FeedEvent,
  type FeedFilter,
  feedEventsAfter,
  matchesFilter,
} from '@mdq/db/feed';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type DevnetChain, type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { fullnodeSource, runIndexer } from '@mdq/indexer';
import { devnetDecoder } from '@mdq/indexer/testing';
import { noopNotifier } from '@mdq/jobs';
import type { FastifyInstance } from 'fastify';
import type { FeedOptions } from '../../src/feed/feed-service';
import { type AppOptions, buildApp } from '../../src/index';
import { until } from './feed-consumers';

/**
 * What the live-feed tests share: a devnet that grows only when told (`advance`), the real indexer
 * following it into a fresh database, an API key, and an API listening on a free port whose feed
 * polls every 50 ms. `restart` replaces the API process (other feed settings allowed).
 */
export interface LiveFeed {
  devnet: DevnetServer;
  chain: DevnetChain;
  test: TestDatabase;
  key: string;
  app: FastifyInstance;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `<origin>/local/api` */
  base: string;
  /** Resolves once the indexer has committed the devnet's tip. */
  indexedTip(): Promise<void>;
  /**
   * Whether a consumer holds everything committed so far (matching `filter`): its last event is
   * the database's last one at the indexed tip. A version's events can arrive in several frames, so
   * "reached the last version" alone would let a wait end while that version's later events are
   * still in flight; what arrived is then checked against the devnet's plans, not against this.
   */
  holdsTail(events: readonly FeedEvent[], filter?: FeedFilter): Promise<boolean>;
  /** Closes the running API (if any) and starts a new one with these feed settings. */
  restart(feed?: Partial<FeedOptions>): Promise<void>;
  /** Closes the API alone (an outage); `restart` brings one back. */
  stopApi(): Promise<void>;
  close(): Promise<void>;
}

export async function startLiveFeed(options: {
  seed: number;
  feed?: Partial<FeedOptions>;
  /** More of the API's options (CORS origins, a logger…), kept across restarts. */
  app?: Omit<Partial<AppOptions>, 'db' | 'network' | 'feed'>;
}): Promise<LiveFeed> {
  const devnet = await startDevnetServer({ port: 0, seed: options.seed, preset: 'tiny', blockIntervalMs: 0 });
  const chain = devnet.chain;
  if (!chain) throw new Error('generated devnet expected');
  const test = await createTestDatabase();
  const key = (await createApiKey(test.db, { name: 'feed' })).key;
  const stop = new AbortController();
  const indexing = runIndexer({
    db: test.db,
    source: fullnodeSource(devnet.url),
    decode: devnetDecoder(devnet),
    notifier: noopNotifier,
    batchSize: 200,
    pollMs: 50,
    maxPollMs: 100,
    signal: stop.signal,
  }).catch(() => {});
  let app: FastifyInstance | null = null;
  const live: LiveFeed = {
    devnet,
    chain,
    test,
    key,
    get app() {
      if (!app) throw new Error('the API is not running');
      return app;
    },
    origin: '',
    base: '',
    indexedTip: () =>
      until(
        'the indexer to reach the devnet tip',
        async () => (await feedIndexedVersion(test.db)) === devnet.ledgerVersion(),
      ),
    async holdsTail(events, filter = {}) {
      const tip = await feedIndexedVersion(test.db);
      if (tip === null) return false;
      // The tiny devnet's whole feed is a few thousand rows: read it all rather than trust a guess.
      const all = await feedEventsAfter(test.db, FEED_START, tip, 1_000_000);
      const tail = all.filter((e) => matchesFilter(e, filter)).at(-1);
      const last = events.at(-1);
      if (!tail) return true;
      return last !== undefined && comparePositions(last, tail) >= 0;
    },
    async restart(feed = {}) {
      await app?.close();
      app = await buildApp({ ...options.app, db: test.db, network: 'local', feed: { pollMs: 50, ...feed } });
      live.origin = await app.listen({ host: '127.0.0.1', port: 0 });
      live.base = `${live.origin}/local/api`;
    },
    async stopApi() {
      await app?.close();
      app = null;
    },
    async close() {
      stop.abort();
      await indexing;
      await app?.close();
      await devnet.close();
      await test.drop();
    },
  };
  await live.restart(options.feed);
  return live;
}
