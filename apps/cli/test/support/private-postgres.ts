import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@mdq/embedded-postgres';

/**
 * A Postgres server of a test's own, from the machine's PostgreSQL binaries, for tests that stop,
 * restart or replicate a server (never the shared one). As root the server runs as the `postgres`
 * account, which Postgres requires; its folder is made traversable for that account.
 */
export interface PrivatePostgres {
  port: number;
  url: string;
  /** SQL as the superuser, through psql. */
  psql(sql: string, database?: string): string;
  stop(): void;
  remove(): void;
}

export function postgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const newest = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return newest ? join(root, newest, 'bin') : null;
}

const asRoot = process.getuid?.() === 0;

function run(bin: string, tool: string, args: string[]): string {
  const [cmd, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
    : [join(bin, tool), args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mdq-pg-'));
  chmodSync(dir, 0o777);
  return dir;
}

async function start(bin: string, dir: string, data: string): Promise<PrivatePostgres> {
  const port = await freePort();
  run(bin, 'pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, `postgres-${port}.log`),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    '-w',
    'start',
  ]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    port,
    url,
    psql: (sql, database = 'postgres') =>
      run(bin, 'psql', [
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        'postgres',
        '-d',
        database,
        '-Atc',
        sql,
      ]).trim(),
    stop: () => {
      try {
        run(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } catch {
        // already stopped
      }
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A new primary, ready for streaming replicas (initdb's trust rules include replication). */
export async function startPrimary(bin: string): Promise<PrivatePostgres> {
  const dir = workDir();
  const data = join(dir, 'data');
  run(bin, 'initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
  // The standby copies this file. Its readers (the APIs under test) must never be cancelled by
  // replay, nor replay by them, while a test pauses and resumes it.
  appendFileSync(
    join(data, 'postgresql.conf'),
    '\nwal_level = replica\nmax_wal_senders = 5\nfsync = off\nhot_standby_feedback = on\n' +
      'max_standby_streaming_delay = -1\nmax_standby_archive_delay = -1\n',
  );
  return start(bin, dir, data);
}

/** A hot standby of `primary`, made with pg_basebackup and streaming from it. */
export async function startStandby(bin: string, primary: PrivatePostgres): Promise<PrivatePostgres> {
  const dir = workDir();
  const data = join(dir, 'data');
  run(bin, 'pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    data,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
  ]);
  return start(bin, dir, data);
}
