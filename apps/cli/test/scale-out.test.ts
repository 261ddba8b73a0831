import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createDb, type Db, ensureApiKey, migrateToLatest, sql } from '@mdq/db';
import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { freePort } from '@mdq/embedded-postgres';
import { fullnodeSource, runIndexer } from '@mdq/indexer';
import { devnetDecoder } from '@mdq/indexer/testing';
import { bullmqNotifier, createRedis, QUEUE_NAMES } from '@mdq/jobs';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from './run-cli';
import {
  type PrivatePostgres,
  postgresBinaries,
  startPrimary,
  startStandby,
} from './support/private-postgres';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const bin = postgresBinaries();
if (!bin && process.env['CI'] === 'true')
  throw new Error('CI=true but no PostgreSQL binaries under /usr/lib/postgresql');

/*
 * Scaling out on real parts: a streaming replica made with pg_basebackup that two `mdq api`
 * processes read from (DATABASE_READ_URL) while sharing one rate limit in Redis, and two `mdq worker`
 * processes sharing the queues. Every process is a real `mdq` command.
 */
describe.skipIf(!bin)('scale-out: replica reads, two APIs, two workers', () => {
  let primary: PrivatePostgres;
  let standby: PrivatePostgres;
  let devnet: DevnetServer;
  let db: Db;
  let redis: Redis;
  const children: ChildProcess[] = [];
  const prefix = `mdq-scale-${randomBytes(4).toString('hex')}`;
  const apiKey = `scale-${randomBytes(12).toString('hex')}`;
  const apis: string[] = [];
  let lastVersion: number;

  const index = async (to: number) => {
    const notifier = bullmqNotifier(redis, { prefix, windowMs: 100 });
    await runIndexer({
      db,
      source: fullnodeSource(devnet.url),
      decode: devnetDecoder(devnet),
      notifier,
      batchSize: 200,
      to,
    });
    await notifier.close();
  };
  const spawn = (command: string, env: Record<string, string>) => {
    const child = spawnCli([command], {
      DATABASE_URL: primary.url,
      REDIS_URL,
      MDQ_QUEUE_PREFIX: prefix,
      MDQ_LOG_LEVEL: 'error',
      APTOS_NETWORK: 'local',
      ...env,
    });
    let output = '';
    child.stdout?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    children.push(child);
    return { child, output: () => output };
  };
  const until = async <T>(
    what: string,
    fn: () => Promise<T | undefined | false>,
    ms = 60_000,
  ): Promise<T> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await fn().catch(() => undefined);
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const get = (base: string, path: string) => fetch(`${base}${path}`, { headers: { 'x-api-key': apiKey } });

  beforeAll(async () => {
    primary = await startPrimary(bin as string);
    standby = await startStandby(bin as string, primary);
    db = createDb(primary.url, { max: 4, applicationName: 'scale-test' });
    await migrateToLatest(db);
    await ensureApiKey(db, apiKey, 'scale');
    redis = createRedis(REDIS_URL);
    devnet = await startDevnetServer({ port: 0, seed: 9, preset: 'tiny', blockIntervalMs: 0 });
    lastVersion = Number(
      ((await (await fetch(devnet.url)).json()) as { ledger_version: string }).ledger_version,
    );
    await index(Math.floor(lastVersion / 2));
  }, 180_000);
  afterAll(async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null) return resolve();
            c.once('close', () => resolve());
            c.kill('SIGTERM');
          }),
      ),
    );
    await db?.destroy();
    const keys = await redis?.keys(`${prefix}:*`);
    if (keys?.length) await redis.del(...keys);
    const limits = await redis?.keys('mdq-rate-limit:*');
    if (limits?.length) await redis.del(...limits);
    redis?.disconnect();
    await devnet?.close();
    standby?.stop();
    primary?.stop();
    standby?.remove();
    primary?.remove();
  });

  it('two API processes read from the standby and share one rate limit', async () => {
    for (let i = 0; i < 2; i++) {
      const api = spawn('api', { DATABASE_READ_URL: standby.url, PORT: '0', MDQ_RATE_LIMIT: '40' });
      // A process start compiles the CLI with tsx: slow on a busy machine, so a generous wait.
      const line = await until(
        'mdq api to listen',
        async () => /listening on (\S+)/.exec(api.output())?.[1],
        180_000,
      );
      apis.push(line);
    }
    const half = Math.floor(lastVersion / 2);
    // Both answer from the standby once it has replayed the first half.
    for (const base of apis) {
      await until('the standby to replay', async () => {
        const res = await get(base, '/rankings/recent-added');
        return res.headers.get('x-mdq-indexed-version') === String(half);
      });
    }
    // Replay paused: the primary moves on, the APIs still answer what the standby holds.
    standby.psql('SELECT pg_wal_replay_pause()');
    await index(lastVersion);
    expect(Number(primary.psql('SELECT max(last_version) FROM indexer_checkpoints'))).toBe(lastVersion);
    await new Promise((r) => setTimeout(r, 500));
    for (const base of apis) {
      const res = await get(base, '/rankings/recent-added');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-mdq-indexed-version')).toBe(String(half));
    }
    standby.psql('SELECT pg_wal_replay_resume()');
    for (const base of apis) {
      await until('the resumed standby to reach the primary', async () => {
        const res = await get(base, '/rankings/recent-added');
        return res.headers.get('x-mdq-indexed-version') === String(lastVersion);
      });
    }

    // One limit of 40 a minute for a fresh key, counted in Redis across both processes.
    const limited = `limit-${randomBytes(12).toString('hex')}`;
    await ensureApiKey(db, limited, 'limited');
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${apis[i % 2]}/whoami`, { headers: { 'x-api-key': limited } });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 40)).toEqual(Array(40).fill(200));
    expect(statuses.slice(40)).toEqual(Array(10).fill(429));
  }, 420_000);

  it('two worker processes share the queues: every job once, and one goes on when the other stops', async () => {
    const ports = [await freePort(), await freePort()];
    const metricsPort = ports[0] as number;
    const workers = ports.map((port) => spawn('worker', { MDQ_METRICS_PORT: String(port) }));
    for (const w of workers)
      await until('mdq worker to start', async () => /mdq worker running/.test(w.output()), 180_000);
    // A worker run alone serves /metrics on MDQ_METRICS_PORT, chain lag included.
    const scrape = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(scrape).toContain(`mdq_indexer_indexed_version ${lastVersion}`);
    expect(scrape).toMatch(/^mdq_db_pool_connections\{pool="mdq-cli",state="total"\} [1-9]/m);
    const queue = new Queue(QUEUE_NAMES.collectionChanged, { connection: redis, prefix });
    try {
      const drained = async () => {
        const counts = await queue.getJobCounts('waiting', 'delayed', 'active', 'failed', 'completed');
        return counts['waiting'] === 0 && counts['delayed'] === 0 && counts['active'] === 0
          ? counts
          : undefined;
      };
      const first = await until('the collection-changed queue to drain', drained, 120_000);
      expect(first['failed']).toBe(0);
      expect(first['completed']).toBeGreaterThan(0);
      // Each worker reports the shared queues' depth and the jobs it ran; together, every completed job.
      let ran = 0;
      for (const port of ports) {
        const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        expect(text).toMatch(/^mdq_queue_jobs\{queue="collection-changed",state="waiting"\} 0$/m);
        const count =
          /^mdq_job_duration_seconds_count\{queue="collection-changed",status="completed"\} (\d+)$/m.exec(
            text,
          );
        ran += Number(count?.[1] ?? 0);
      }
      expect(ran).toBe(first['completed']);
      const ranked = Number(primary.psql('SELECT count(DISTINCT collection_id) FROM token_rarity'));
      expect(ranked).toBeGreaterThan(0);

      // Stop one worker; new work still completes on the other.
      const stopped = workers[0]?.child as ChildProcess;
      await new Promise<void>((resolve) => {
        stopped.once('close', () => resolve());
        stopped.kill('SIGTERM');
      });
      // Rarity gone and its marks with it, as if every collection's traits had changed: a
      // collection-changed job recomputes only a collection whose rarity is stale.
      await sql`DELETE FROM token_rarity`.execute(db);
      await sql`DELETE FROM collection_rarity_marks`.execute(db);
      const ids = (
        await sql<{ id: string }>`SELECT DISTINCT collection_id AS id FROM tokens`.execute(db)
      ).rows.map((r) => r.id);
      const notifier = bullmqNotifier(redis, { prefix, windowMs: 0 });
      await notifier.collectionsChanged(ids, lastVersion);
      await notifier.close();
      const second = await until('the remaining worker to drain the queue', drained, 120_000);
      expect(second['failed']).toBe(0);
      expect(Number(primary.psql('SELECT count(DISTINCT collection_id) FROM token_rarity'))).toBe(ranked);
    } finally {
      await queue.close();
    }
  }, 420_000);
});
