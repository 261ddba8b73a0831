import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { type PrivateRedis, startPrivateRedis } from '@mdq/jobs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainCheckpoint, queryRows } from '../src/checkpoint';
import { printFigures } from '../src/figures';
import { stackTraceLines } from '../src/log-lines';
import { type MdqProcess, sleep, spawnMdq, until, untilRunning } from '../src/processes';

const OUTAGE_MS = 10_000;
/** A failure log writes a repeated failure's count when its 10 s window ends: lines are counted past it. */
const COUNT_FLUSH_MS = 11_000;
/** Indexing the initial 5,000 transactions takes minutes on a loaded 2-core machine. */
const CATCH_UP_MS = 300_000;

/*
 * A private Redis (no persistence) is stopped for ten seconds while the indexer follows a live
 * devnet whose market keeps trading (listings, sales, offers, mints in every block) and the worker
 * consumes the jobs. Ingestion must go on during the outage (the checkpoint keeps moving), the
 * collection changes committed meanwhile must wait in the outbox and, once Redis is back, drain
 * into the queue and be recomputed by the worker; both processes stay alive and each writes a few
 * de-duplicated lines, never a stack trace per reconnect attempt.
 */
describe('a ten-second Redis outage', () => {
  let redis: PrivateRedis;
  let devnet: DevnetServer;
  let test: TestDatabase;
  const processes: MdqProcess[] = [];

  beforeAll(async () => {
    [redis, test] = await Promise.all([startPrivateRedis(), createTestDatabase()]);
    devnet = await startDevnetServer({ port: 0, seed: 7, preset: 'small', blockIntervalMs: 500 });
    const env = {
      DATABASE_URL: test.url,
      REDIS_URL: redis.url,
      APTOS_NETWORK: 'local',
      APTOS_FULLNODE_URL: devnet.url,
    };
    processes.push(spawnMdq('indexer', ['indexer'], env));
    await until('the indexer to commit', async () => (await mainCheckpoint(test.url)) !== null, CATCH_UP_MS);
    const worker = spawnMdq('worker', ['worker'], env);
    processes.push(worker);
    // The indexer can reach the tip (and the test stop Redis) before a slow start of the worker
    // has connected: it would then exit on its start-up check instead of living through the outage.
    await untilRunning(worker, 'mdq worker running');
  });
  afterAll(async () => {
    for (const p of processes) {
      await p.stop();
      console.log(`--- ${p.name} (last lines)\n${p.lines.slice(-20).join('\n')}`);
    }
    await devnet?.close();
    await redis?.destroy();
    await test?.drop();
  });

  it('keeps ingesting, keeps the changes in the outbox, then enqueues and recomputes them', async () => {
    // Caught up with the live chain first, so that progress during the outage is live progress,
    // and the outbox drained, so that what it holds later was committed during the outage.
    await until(
      'the indexer to reach the tip',
      async () => {
        const tip = Number(
          ((await (await fetch(devnet.url)).json()) as { ledger_version: string }).ledger_version,
        );
        return ((await mainCheckpoint(test.url)) ?? -1) >= tip - 100;
      },
      CATCH_UP_MS,
    );
    await until(
      'the outbox to drain before the outage',
      async () => (await outboxRows(test.url)) === 0,
      CATCH_UP_MS,
    );
    const linesBefore = processes.map((p) => p.lines.length);

    const atStop = (await mainCheckpoint(test.url)) ?? -1;
    await redis.stop();
    const stoppedAt = Date.now();
    // Sampled once a second: the checkpoint must keep moving and the outbox keep what was committed.
    const samples: { checkpoint: number; outbox: number }[] = [];
    while (Date.now() - stoppedAt < OUTAGE_MS) {
      // The devnet publishes a block every 500 ms; two more per sample keep the market busy.
      devnet.advance(2);
      samples.push({
        checkpoint: (await mainCheckpoint(test.url)) ?? -1,
        outbox: await outboxRows(test.url),
      });
      await sleep(1_000);
    }
    const atRestart = (await mainCheckpoint(test.url)) ?? -1;
    const waiting = await outboxCollections(test.url, atRestart);
    await redis.start();
    const restarted = new Date();

    await until(
      'the outbox to empty of what was committed during the outage',
      async () => (await outboxRows(test.url, atRestart)) === 0,
    );
    const drainSeconds = (Date.now() - restarted.getTime()) / 1000;
    // The worker recomputes the collections that waited: their rarity is computed again after the
    // restart (only collection-changed jobs recompute one collection's rarity between schedules).
    const recomputed = await until('the worker to recompute the collections that waited', async () => {
      const n = await recomputedSince(test.url, waiting, restarted);
      return n > 0 ? n : undefined;
    });
    // Lines of the outage and its aftermath, including the counts a failure log writes at the end
    // of its window.
    await sleep(Math.max(0, restarted.getTime() + COUNT_FLUSH_MS - Date.now()));
    const outageLines = Object.fromEntries(
      processes.map((p, i) => [p.name, p.lines.slice(linesBefore[i] ?? 0)] as const),
    );
    const alive = Object.fromEntries(processes.map((p) => [p.name, p.alive()]));
    const advances = samples.filter((s, i) => i > 0 && s.checkpoint > (samples[i - 1]?.checkpoint ?? -1));
    for (const [name, lines] of Object.entries(outageLines))
      console.log(
        `--- ${name}: ${lines.length} lines from the stop to ${COUNT_FLUSH_MS / 1000} s after the restart\n${lines.join('\n')}`,
      );
    await printFigures('redis', {
      faults: ['redis stopped 10 s (no persistence), then started'],
      checkpointAtStop: atStop,
      checkpointSamplesDuringOutage: samples.map((s) => s.checkpoint),
      checkpointAtRestart: atRestart,
      outboxRowsDuringOutage: samples.map((s) => s.outbox),
      collectionsWaitingAtRestart: waiting.length,
      outboxDrainedSecondsAfterRestart: Number(drainSeconds.toFixed(1)),
      collectionsRecomputedAfterRestart: recomputed,
      alive,
      logLinesDuringOutage: Object.fromEntries(Object.entries(outageLines).map(([n, l]) => [n, l.length])),
      logLinesWholeRun: Object.fromEntries(processes.map((p) => [p.name, p.lines.length])),
    });

    // Ingestion never paused: the checkpoint moved again and again while Redis was down.
    expect(advances.length, JSON.stringify(samples)).toBeGreaterThanOrEqual(3);
    expect(atRestart).toBeGreaterThan(atStop);
    // The changes committed meanwhile waited in the outbox (more of them as the outage went on) ...
    expect(samples.at(-1)?.outbox ?? 0).toBeGreaterThan(0);
    expect(waiting.length).toBeGreaterThan(0);
    // ... and were enqueued and recomputed once Redis was back.
    expect(recomputed).toBeGreaterThan(0);
    expect(alive).toEqual({ indexer: true, worker: true });
    for (const [name, lines] of Object.entries(outageLines)) {
      expect(lines.length, `${name}: ${lines.join('\n')}`).toBeLessThanOrEqual(20);
      expect(stackTraceLines(lines), name).toEqual([]);
    }
  });

  it('stops on SIGTERM with exit 0 and no error line', async () => {
    const marks = processes.map((p) => p.lines.length);
    const codes = await Promise.all(processes.map((p) => p.stop()));
    const after = processes.map((p, i) => p.lines.slice(marks[i] ?? 0).join('\n'));
    expect(codes).toEqual([0, 0]);
    // The database used to be closed under a run still finishing its batch: "driver has already
    // been destroyed".
    for (const text of after) expect(text).not.toMatch(/destroyed|error/i);
  });
});

/** Outbox rows, all or those committed up to `version`. */
async function outboxRows(url: string, version?: number): Promise<number> {
  const rows = await queryRows(
    url,
    'SELECT count(*)::int AS n FROM collection_change_outbox WHERE $1::bigint IS NULL OR version <= $1',
    [version ?? null],
  );
  return Number(rows[0]?.['n']);
}

async function outboxCollections(url: string, version: number): Promise<string[]> {
  const rows = await queryRows(
    url,
    'SELECT collection_id FROM collection_change_outbox WHERE version <= $1',
    [version],
  );
  return rows.map((r) => String(r['collection_id']));
}

/** How many of `collections` had their rarity computed after `since`. */
async function recomputedSince(url: string, collections: string[], since: Date): Promise<number> {
  const rows = await queryRows(
    url,
    `SELECT count(DISTINCT collection_id)::int AS n FROM token_rarity
      WHERE collection_id = ANY($1::text[]) AND computed_at > $2`,
    [collections, since],
  );
  return Number(rows[0]?.['n'] ?? 0);
}
