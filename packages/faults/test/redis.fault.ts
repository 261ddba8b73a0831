import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, mainCheckpoint } from '../src/checkpoint';
import { printFigures } from '../src/figures';
import { type PrivateRedis, startPrivateRedis } from '../src/private-redis';
import { type MdqProcess, sleep, spawnMdq, until } from '../src/processes';

/*
 * A private Redis (no persistence) is stopped for ten seconds while the indexer follows a live
 * devnet and the worker consumes its jobs. Ingestion must go on during the outage (the checkpoint
 * moves), the collection changes committed meanwhile must reach the queue once Redis is back (the
 * outbox empties), and both processes must still be alive.
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
    processes.push(spawnMdq('indexer', ['indexer'], env), spawnMdq('worker', ['worker'], env));
    await until('the indexer to commit', async () => (await mainCheckpoint(test.url)) !== null);
  });
  afterAll(async () => {
    for (const p of processes) {
      await p.stop();
      console.log(`--- ${p.name} (last lines)\n${p.lines.slice(-40).join('\n')}`);
    }
    await devnet?.close();
    await redis?.destroy();
    await test?.drop();
  });

  it('keeps ingesting while Redis is down and enqueues what it committed meanwhile', async () => {
    // Caught up with the live chain first, so that progress during the outage is live progress.
    await until('the indexer to reach the tip', async () => {
      const tip = Number(
        ((await (await fetch(devnet.url)).json()) as { ledger_version: string }).ledger_version,
      );
      return ((await mainCheckpoint(test.url)) ?? -1) >= tip - 100;
    });
    const atStop = (await mainCheckpoint(test.url)) ?? -1;
    await redis.stop();
    const stoppedAt = Date.now();
    const during = await until(
      'the checkpoint to move while Redis is down',
      async () => {
        const now = (await mainCheckpoint(test.url)) ?? -1;
        return now > atStop ? now : undefined;
      },
      9_000,
    );
    const pendingDuringOutage = await countRows(test.url, 'SELECT count(*) FROM collection_change_outbox');
    await sleep(Math.max(0, 10_000 - (Date.now() - stoppedAt)));
    const atRestart = (await mainCheckpoint(test.url)) ?? -1;
    await redis.start();
    const restarted = Date.now();
    await until(
      'the outbox to empty of what was committed during the outage',
      async () =>
        (await countRows(
          test.url,
          `SELECT count(*) FROM collection_change_outbox WHERE version <= ${atRestart}`,
        )) === 0,
    );
    const drainSeconds = (Date.now() - restarted) / 1000;
    const alive = Object.fromEntries(processes.map((p) => [p.name, p.alive()]));
    await printFigures('redis', {
      faults: ['redis stopped 10 s (no persistence), then started'],
      checkpointAtStop: atStop,
      checkpointDuringOutage: during,
      checkpointAtRestart: atRestart,
      outboxRowsDuringOutage: pendingDuringOutage,
      outboxDrainedSecondsAfterRestart: Number(drainSeconds.toFixed(1)),
      alive,
      logLines: Object.fromEntries(processes.map((p) => [p.name, p.lines.length])),
    });
    expect(during).toBeGreaterThan(atStop);
    expect(atRestart).toBeGreaterThan(atStop);
    expect(alive).toEqual({ indexer: true, worker: true });
  });
});
