import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@mdq/config';
import { runningEmbeddedUrl, startEmbeddedPostgres, stopEmbeddedPostgres } from './index';

// Through createRequire from this file: vitest runs a global setup in the runner of the package
// under test, which resolves bare imports from that package (where pg is not a dependency).
const require = createRequire(import.meta.url);
const pg = require('pg') as typeof import('pg');
const lockfile = require('proper-lockfile') as typeof import('proper-lockfile');

/**
 * Vitest global setup of every package whose tests need Postgres. The server tests use, in order:
 * TEST_DATABASE_URL or DATABASE_URL when set (never replaced); else the local Postgres at
 * MDQ_TEST_DEFAULT_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) when it
 * answers; else — not under CI=true, where the services are expected — one embedded Postgres for
 * the whole test run, shared by every package's test run through leases (each test file still
 * creates its own database), stopped by the last run that leaves.
 */
export const DEFAULT_TEST_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

const env = process.env;
let leave: (() => Promise<void>) | null = null;

export async function setup(): Promise<void> {
  if (env['TEST_DATABASE_URL'] || env['DATABASE_URL']) return;
  const local = env['MDQ_TEST_DEFAULT_DATABASE_URL'] || DEFAULT_TEST_SERVER;
  if (await answers(local)) {
    env['TEST_DATABASE_URL'] = local;
    return;
  }
  if (env['CI'] === 'true') {
    throw new Error(`CI=true but no Postgres answers at ${local}: start it, or set TEST_DATABASE_URL`);
  }
  const joined = await joinSharedServer();
  env['TEST_DATABASE_URL'] = joined.url;
  leave = joined.leave;
  console.log(`tests: no Postgres at ${local}; using the embedded test Postgres (${joined.url})`);
}

export async function teardown(): Promise<void> {
  await leave?.();
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** `<repo>/.data/test-postgres`: one cluster for all the packages' test runs, kept between runs. */
function sharedServerDir(): string {
  let current = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(current, 'pnpm-workspace.yaml'))) {
    const parent = dirname(current);
    if (parent === current) throw new Error('tests: the repository root (pnpm-workspace.yaml) was not found');
    current = parent;
  }
  return resolve(current, '.data', 'test-postgres');
}

async function joinSharedServer(): Promise<{ url: string; leave: () => Promise<void> }> {
  const dir = sharedServerDir();
  const leases = join(dir, 'leases');
  await mkdir(leases, { recursive: true });
  const lease = join(leases, String(process.pid));
  const url = await locked(dir, async () => {
    await writeFile(lease, '');
    const running = await runningEmbeddedUrl(dir);
    if (running) return running;
    const server = await startEmbeddedPostgres(dir, { sharedDir: loadConfig().sharedDir });
    // It outlives this run when other runs still hold leases; the last one stops it.
    server.release();
    return server.url;
  });
  return {
    url: adminUrl(url),
    leave: () =>
      locked(dir, async () => {
        await rm(lease, { force: true });
        if ((await liveLeases(leases)).length === 0) await stopEmbeddedPostgres(dir);
      }),
  };
}

/** Leases of runs that died without leaving are dropped. */
async function liveLeases(leases: string): Promise<string[]> {
  const live: string[] = [];
  for (const name of await readdir(leases)) {
    const pid = Number(name);
    try {
      process.kill(pid, 0);
      live.push(name);
    } catch {
      await rm(join(leases, name), { force: true });
    }
  }
  return live;
}

async function locked<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const release = await lockfile.lock(dir, {
    retries: { retries: 1_200, minTimeout: 100, maxTimeout: 250 },
    realpath: false,
  });
  try {
    return await work();
  } finally {
    await release();
  }
}

/** Test files create their databases from the maintenance database. */
function adminUrl(url: string): string {
  const parsed = new URL(url);
  parsed.pathname = '/postgres';
  return parsed.toString();
}
