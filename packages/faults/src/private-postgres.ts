import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@mdq/embedded-postgres';

const run = promisify(execFile);
const BIN = process.env['MDQ_PG_BIN'] ?? '/usr/lib/postgresql/15/bin';

export interface PrivatePostgres {
  url: string;
  port: number;
  /** The server's temporary directory (world-writable: dumps can go here). */
  dir: string;
  /** Runs a PostgreSQL client tool of the same version (as `postgres` when root). */
  tool(name: string, args: string[]): Promise<{ stdout: string }>;
  /** Ends recovery of a standby (pg_ctl promote), waiting until it accepts writes. */
  promote(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** Makes a server's data directory (`data`, not yet there) with the server's tools. */
export type FillDataDir = (data: string, tool: PrivatePostgres['tool']) => Promise<unknown>;

/**
 * A Postgres of the test's own (initdb + pg_ctl on a free port, in a temporary directory), so that
 * it can be restarted and stopped without touching the machine's shared one. As root, the server
 * runs as the `postgres` user (initdb refuses root). `fill` makes the data directory instead of
 * initdb (a pg_basebackup of another private server, for the restore drill).
 */
export async function startPrivatePostgres(options: { fill?: FillDataDir } = {}): Promise<PrivatePostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'mdq-fault-pg-'));
  const data = join(dir, 'data');
  let port = 0;
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    await chmod(dir, 0o777);
  }
  const pg = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(BIN, tool), ...args]) : run(join(BIN, tool), args);
  if (options.fill) await options.fill(data, pg);
  else await pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  /*
   * A free port is one nothing listens on when asked, and the ephemeral range it comes from is also
   * where the machine's outgoing connections take theirs: in the moment before the server binds it,
   * another test's process can take it (a CI run lost the restore drill so: "could not bind ...
   * Address already in use"). Asked right before the start, and asked again when the bind lost.
   */
  const startOnAFreePort = async () => {
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        await ctl('start');
        return;
      } catch (error) {
        const log = await readFile(join(dir, 'log'), 'utf8').catch(() => '');
        if (attempt >= 5 || !log.includes(`port ${port}?`)) throw error;
      }
    }
  };
  const ctl = (action: string, extra: string[] = []) =>
    pg('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      ...extra,
      action,
    ]);
  await startOnAFreePort();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    tool: pg,
    promote: async () => {
      await pg('pg_ctl', ['-D', data, '-w', '-t', '60', 'promote']);
    },
    restart: async () => {
      await ctl('restart', ['-m', 'fast']);
    },
    stop: async () => {
      await ctl('stop', ['-m', 'fast']);
    },
    start: async () => {
      await ctl('start');
    },
    destroy: async () => {
      await ctl('stop', ['-m', 'immediate']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
