import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { createRedis, QUEUE_NAMES, redisAnswers } from '@mdq/jobs';
import { recordingLogger as logTo } from '@mdq/log';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerLogger } from '../src/logger';
import { SCHEDULES } from '../src/schedules';
import { startWorker } from '../src/start-worker';
import { eventually } from './wait';

/*
 * Issue #13 item 4: job schedulers live only in Redis. A Redis restarted without persistence comes
 * back empty; the worker must notice and re-create them. A private redis-server on a free port is
 * restarted here (never the shared one).
 */
let t: TestDatabase;
let db: Db;
let dir: string;
let port: number;
let redisProcess: ChildProcess | undefined;

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** redis-server without persistence (no RDB, no AOF): a restart loses every key. */
async function startRedis(): Promise<void> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  redisProcess = child;
  await eventually(async () => expect(await redisAnswers(redisUrl())).toBe(true), 15_000);
}

async function stopRedis(): Promise<void> {
  const child = redisProcess;
  if (!child || child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

const redisUrl = () => `redis://127.0.0.1:${port}`;

async function schedulerIds(): Promise<string[]> {
  const connection = createRedis(redisUrl());
  const queue = new Queue(QUEUE_NAMES.aggregates, { connection, prefix: 'mdq' });
  try {
    return (await queue.getJobSchedulers()).map((s) => s.key).sort();
  } finally {
    await queue.close();
    await connection.quit();
  }
}

const expected = SCHEDULES.map((s) => s.id).sort();

function recordingLogger(): { logger: WorkerLogger; recreated: unknown[] } {
  const recreated: unknown[] = [];
  return {
    recreated,
    // Connection errors while Redis is down are expected here: only the re-creations are read.
    logger: logTo((line) => {
      if (line.level === 'warn' && line.msg === 'job schedulers re-created') recreated.push(line['reason']);
    }),
  };
}

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
  dir = await mkdtemp(join(tmpdir(), 'mdq-redis-'));
  port = await freePort();
  await startRedis();
});

afterAll(async () => {
  await stopRedis();
  await rm(dir, { recursive: true, force: true });
  await t?.drop();
});

describe('job schedulers after Redis loses them', () => {
  it('are re-created when the worker reconnects to a restarted Redis', { timeout: 90_000 }, async () => {
    const { logger, recreated } = recordingLogger();
    // The periodic check is out of the way: only the reconnect can bring them back.
    const worker = await startWorker({ db, redisUrl: redisUrl(), logger, scheduleCheckMs: 3_600_000 });
    try {
      expect(await schedulerIds()).toEqual(expected);
      await stopRedis();
      await startRedis();
      // The restarted server is empty until the worker's connection is ready again and re-creates
      // every scheduler (the log line is written only for schedulers found missing).
      await eventually(async () => expect(await schedulerIds()).toEqual(expected), 60_000);
      expect(recreated).toContain('redis ready');
    } finally {
      await worker.close();
    }
  });

  it('are re-created by the periodic check when Redis is emptied under a live connection', async () => {
    const { logger, recreated } = recordingLogger();
    const worker = await startWorker({ db, redisUrl: redisUrl(), logger, scheduleCheckMs: 500 });
    try {
      expect(await schedulerIds()).toEqual(expected);
      const admin = createRedis(redisUrl());
      await admin.flushall();
      await admin.quit();
      await eventually(async () => expect(await schedulerIds()).toEqual(expected), 20_000);
      expect(recreated).toContain('periodic check');
    } finally {
      await worker.close();
    }
  });
});
