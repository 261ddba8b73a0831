import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { freePort } from '@mdq/embedded-postgres';
import { type PrivateRedis, startPrivateRedis } from '@mdq/jobs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainCheckpoint } from '../src/checkpoint';
import { printFigures } from '../src/figures';
import { startLoad } from '../src/load';
import { type PrivatePostgres, startPrivatePostgres } from '../src/private-postgres';
import { type MdqProcess, sleep, spawnMdq, until, untilRunning } from '../src/processes';

/*
 * A private Postgres is restarted, then stopped for ten seconds, under API load, while the indexer
 * follows a live devnet and the worker runs on a private Redis. Every answer must be a 200 or a
 * 503, every process must still be alive afterwards, the API must answer 200 again and the indexer
 * move on without anyone restarting them.
 */
describe('a Postgres restart and a ten-second outage under load', () => {
  let postgres: PrivatePostgres;
  let redis: PrivateRedis;
  let devnet: DevnetServer;
  const processes: MdqProcess[] = [];
  const key = 'fault-suite-key-0123456789abcdef';
  let apiBase = '';

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
    // 'small' grows for minutes; the tiny chain's live growth stops with 500s near version 950 (a devnet issue).
    devnet = await startDevnetServer({ port: 0, seed: 7, preset: 'small', blockIntervalMs: 500 });
    const port = await freePort();
    const env = {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      APTOS_NETWORK: 'local',
      APTOS_FULLNODE_URL: devnet.url,
      MDQ_API_KEY: key,
      PORT: String(port),
      // The load loops are the only caller: the per-key limit must not answer for the database.
      MDQ_RATE_LIMIT: '1000000',
    };
    // The indexer migrates first; the others start on a migrated database.
    processes.push(spawnMdq('indexer', ['indexer'], env));
    // Minutes on a loaded machine: migrations, then the first batch.
    await until('the indexer to commit', async () => (await mainCheckpoint(postgres.url)) !== null, 300_000);
    const worker = spawnMdq('worker', ['worker'], env);
    processes.push(worker, spawnMdq('api', ['api'], env));
    apiBase = `http://127.0.0.1:${port}`;
    await until('the API to serve', async () => (await fetch(`${apiBase}/ready`)).ok, 300_000);
    await untilRunning(worker, 'mdq worker running');
  });

  afterAll(async () => {
    for (const p of processes) {
      await p.stop();
      console.log(`--- ${p.name} (last lines)\n${p.lines.slice(-15).join('\n')}`);
    }
    await devnet?.close();
    await redis?.destroy();
    await postgres?.destroy();
  });

  it('answers only 200 or 503, recovers alone and keeps every process alive', async () => {
    const urls = ['/local/api/rankings/recent-added', '/local/market/listing-cards', '/local/api/whoami'].map(
      (path) => `${apiBase}${path}`,
    );
    const load = startLoad(urls, { 'x-api-key': key });
    const recovery: number[] = [];
    const recovered = async () => {
      const started = Date.now();
      await until(
        'the API to answer 200 again',
        async () =>
          (await fetch(`${apiBase}/local/api/rankings/recent-added`, { headers: { 'x-api-key': key } }))
            .status === 200,
      );
      const before = (await mainCheckpoint(postgres.url)) ?? -1;
      await until(
        'the indexer to commit again',
        async () => ((await mainCheckpoint(postgres.url)) ?? -1) > before,
      );
      recovery.push((Date.now() - started) / 1000);
    };

    await sleep(2_000);
    await postgres.restart();
    await recovered();
    await sleep(1_000);
    await postgres.stop();
    await sleep(10_000);
    await postgres.start();
    await recovered();
    await sleep(1_000);
    const counts = await load.stop();

    const alive = Object.fromEntries(processes.map((p) => [p.name, p.alive()]));
    const unavailableLines = processes.map((p) => [p.name, p.lines.length] as const);
    await printFigures('postgres', {
      faults: ['restart (fast)', 'stop 10 s then start'],
      requestsByStatus: counts,
      recoverySeconds: recovery.map((s) => Number(s.toFixed(1))),
      alive,
      logLines: Object.fromEntries(unavailableLines),
    });
    expect(Object.keys(counts).sort()).toEqual(expect.arrayContaining(['200']));
    expect(Object.keys(counts).filter((status) => status !== '200' && status !== '503')).toEqual([]);
    expect(alive).toEqual({ indexer: true, worker: true, api: true });
    // One line per distinct failure with a count, not one stack trace per failed request or retry.
    for (const [name, lines] of unavailableLines) expect(lines, `${name} log lines`).toBeLessThan(60);
  });
});
