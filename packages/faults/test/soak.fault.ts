import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, stateFingerprint, type TestDatabase } from '@mdq/db/testing';
import type { DevnetFacts } from '@mdq/devnet';
import { createDecoder, fullnodeSource, runIndexer } from '@mdq/indexer';
import { noopNotifier } from '@mdq/jobs';
import { type PrivateRedis, startPrivateRedis } from '@mdq/jobs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/checkpoint';
import { PROCESS_NAMES, runSoak, type SoakResult } from '../src/soak';

/*
 * The soak run in short (the long one is `pnpm --filter @mdq/bench bench:soak --minutes N`;
 * docs/RELIABILITY.md, "The long run"): a small devnet chain growing four blocks a second, `mdq
 * indexer`, `mdq worker` and `mdq api` as their own processes, a read load over distinct URLs and
 * ten live-feed (SSE) streams, for 40 s, sampled every 5 s. Only what noise cannot flip is
 * asserted: no answer but a 200 or a shed 503, nothing lost (the indexer reaches the tip of the end
 * of the load; the tables equal a quiet reference ingestion of the same versions and the
 * generator's own count of the initial chain), every memory series present, every feed client
 * open at the end with events received over the run and closed before the processes' SIGTERM,
 * every process exited cleanly. Whether a series grows is the bench's verdict, never this test's.
 */
const SECONDS = 40;
const SAMPLE_SECONDS = 5;
const FEED_CLIENTS = 10;

describe('the soak run, short', () => {
  let redis: PrivateRedis;
  let test: TestDatabase;
  let reference: TestDatabase;
  let soak: SoakResult | undefined;
  let devnetExit: number | null = null;
  const factsFile = join(tmpdir(), `mdq-soak-facts-${process.pid}.json`);

  beforeAll(async () => {
    [redis, test, reference] = await Promise.all([
      startPrivateRedis(),
      createTestDatabase({ migrate: false }),
      createTestDatabase(),
    ]);
    soak = await runSoak({
      databaseUrl: test.url,
      redisUrl: redis.url,
      seconds: SECONDS,
      sampleSeconds: SAMPLE_SECONDS,
      initialTransactions: 600,
      blockIntervalMs: 250,
      liveBlockSize: 10,
      connections: 4,
      feedClients: FEED_CLIENTS,
      factsFile,
    });
  });
  afterAll(async () => {
    if (soak) devnetExit = await soak.close();
    await reference?.drop();
    await test?.drop();
    await redis?.destroy();
    await rm(factsFile, { force: true });
  });

  it('answers only 200s and shed 503s, loses nothing, samples every process, and stops cleanly', async () => {
    const run = soak as SoakResult;
    console.log(
      `soak (short): ${JSON.stringify({ statuses: run.statuses, urls: run.urls, tipAtEnd: run.tipAtEnd, indexedAtEnd: run.indexedAtEnd, samples: run.samples.length, feed: run.feed, exitCodes: run.exitCodes })}`,
    );
    // Only a 200 or a 503 (shedding); at least some reads served.
    expect(Object.keys(run.statuses).filter((s) => s !== '200' && s !== '503')).toEqual([]);
    expect(run.statuses['200'] ?? 0).toBeGreaterThan(0);
    expect(run.urls).toBeGreaterThan(100);

    // The chain grew during the load, and the indexer reached where it stood at the end.
    const first = run.samples[0];
    expect(first).toBeDefined();
    expect(run.tipAtEnd).toBeGreaterThan(first?.tipVersion ?? Number.POSITIVE_INFINITY);
    expect(run.indexedAtEnd).toBeGreaterThanOrEqual(run.tipAtEnd);

    // Every sample has every process's memory and descriptors, and the mdq processes' heap.
    expect(run.samples.length).toBeGreaterThanOrEqual(SECONDS / SAMPLE_SECONDS - 1);
    for (const s of run.samples) {
      for (const name of PROCESS_NAMES) {
        expect(s.processes[name].rssBytes, `${name} RSS at ${s.t}s`).toBeGreaterThan(0);
        expect(s.processes[name].fds, `${name} descriptors at ${s.t}s`).toBeGreaterThan(0);
      }
      for (const name of ['indexer', 'worker', 'api'] as const)
        expect(s.processes[name].heapUsedBytes, `${name} heap at ${s.t}s`).toBeGreaterThan(0);
      expect(s.databaseBytes).toBeGreaterThan(0);
      expect(s.tableBytes['marketplace_activities']).toBeGreaterThan(0);
      expect(s.redisBytes).toBeGreaterThan(0);
      expect(s.feed.connected, `feed streams open at ${s.t}s`).toBeLessThanOrEqual(FEED_CLIENTS);
    }

    // The live feed: every client's stream open when the clients stopped, each with events read
    // over the run (the growing chain's sales, listings, mints and transfers; a single 5 s
    // interval is not asserted), and every one closed by its client before the API's SIGTERM.
    expect(run.feed.clients).toBe(FEED_CLIENTS);
    expect(run.feed.connectedAtStop).toBe(FEED_CLIENTS);
    expect(run.feed.perClient.filter((c) => c.events === 0)).toEqual([]);
    expect(run.samples.reduce((n, s) => n + s.feed.events, 0)).toBeGreaterThan(0);
    expect(run.feed.closed).toBe(FEED_CLIENTS);

    // Nothing lost: the indexed tables equal a quiet ingestion of the same versions from the same
    // devnet, and the initial chain's sales are the generator's own count.
    const facts = JSON.parse(await readFile(factsFile, 'utf8')) as DevnetFacts;
    await runIndexer({
      db: reference.db,
      source: fullnodeSource(run.devnetUrl),
      decode: createDecoder({
        marketplaceAddress: facts.chain.marketplaceAddress,
        lootboxAddress: facts.chain.lootboxAddress,
      }),
      notifier: noopNotifier,
      batchSize: 500,
      to: run.indexedAtEnd,
    });
    const [soaked, quiet] = [await stateFingerprint(test.db), await stateFingerprint(reference.db)];
    expect(Object.keys(soaked).filter((table) => soaked[table] !== quiet[table])).toEqual([]);
    const [initial] = await queryRows(
      test.url,
      `SELECT count(*)::int AS sales, coalesce(sum(price), 0)::text AS volume FROM marketplace_activities
        WHERE kind LIKE 'fill_%' AND transaction_version <= $1`,
      [facts.chain.lastVersion],
    );
    expect(initial).toEqual({ sales: facts.totals.sales, volume: facts.totals.volume });

    // Every process exited on SIGTERM with status 0, the devnet too.
    expect(run.exitCodes).toEqual({ api: 0, worker: 0, indexer: 0 });
    devnetExit = await run.close();
    expect(devnetExit).toBe(0);
  });
});
