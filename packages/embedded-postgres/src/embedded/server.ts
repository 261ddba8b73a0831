import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync } from 'node:fs';
import { chown, readFile, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Binaries } from './binaries';
import { firstLine, type RunAs } from './os-user';

// Loaded through createRequire from this file: vitest's global setup (test-server.ts) runs it in
// the runner of the package under test, which resolves bare imports from that package, not this one.
const pg = createRequire(import.meta.url)('pg') as typeof import('pg');

export interface ServerSpec {
  binaries: Binaries;
  clusterDir: string;
  /** Postgres's own output goes here (opened by this process, so the OS user needs no access). */
  logFile: string;
  runAs: RunAs | null;
  user: string;
  password: string;
}

const LOCALE_ENV = { LC_ALL: 'C', LC_MESSAGES: 'C', LANG: 'C' };

/** initdb into an empty cluster folder, as the OS user that will run the server. */
export async function initCluster(spec: ServerSpec): Promise<void> {
  // initdb reads the superuser password from a file; the OS user must be able to read it.
  const pwfile = join(tmpdir(), `mdq-pw-${randomBytes(6).toString('hex')}`);
  await writeFile(pwfile, `${spec.password}\n`, { mode: 0o600 });
  try {
    if (spec.runAs) await chown(pwfile, spec.runAs.uid, spec.runAs.gid);
    const output = await runToEnd(spec, spec.binaries.initdb, [
      `--pgdata=${spec.clusterDir}`,
      '--auth=password',
      `--username=${spec.user}`,
      `--pwfile=${pwfile}`,
      '--encoding=UTF8',
      '--locale=C',
    ]);
    if (output.code !== 0) throw new Error(`initdb failed: ${lastLine(output.text)}`);
  } finally {
    await unlink(pwfile).catch(() => undefined);
  }
}

export interface RunningServer {
  pid: number;
  /** Fast shutdown (SIGINT: open sessions are ended), resolved when the postmaster has exited. */
  stop(): Promise<void>;
  /** Stops holding this process open for the postmaster. */
  release(): void;
}

/**
 * Starts the postmaster in its own session and process group (`detached`): a Ctrl-C in the
 * terminal then reaches mdq only, and mdq stops Postgres last, after everything that uses it.
 * Resolves once it accepts connections; rejects with its last log line if it exits first.
 */
export async function startServer(
  spec: ServerSpec,
  port: number,
  deadlineMs = 120_000,
): Promise<RunningServer> {
  const log = openSync(spec.logFile, 'a');
  // Only this run's lines explain this run's failure.
  const logStart = fstatSync(log).size;
  let child: ChildProcess;
  try {
    child = spawn(
      spec.binaries.postgres,
      ['-D', spec.clusterDir, '-p', String(port), '-h', '127.0.0.1', '-k', ''],
      {
        detached: true,
        stdio: ['ignore', log, log],
        env: { ...process.env, ...LOCALE_ENV },
        ...(spec.runAs ? { uid: spec.runAs.uid, gid: spec.runAs.gid } : {}),
      },
    );
  } finally {
    closeSync(log);
  }
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(firstLine(error)));
    child.once('exit', (code, signal) => resolve(`postgres exited (${signal ?? `code ${code}`})`));
  });
  let gone: string | null = null;
  void exited.then((reason) => {
    gone = reason;
  });
  const until = Date.now() + deadlineMs;
  while (gone === null) {
    if (await accepts(spec, port)) break;
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(
        `postgres did not accept connections within ${deadlineMs / 1000} s (log: ${spec.logFile})`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (gone !== null) {
    const text = await readFile(spec.logFile).then(
      (bytes) => bytes.subarray(logStart).toString('utf8'),
      () => '',
    );
    const tail = lastLine(text);
    throw new Error(tail ? `${gone}: ${tail}` : gone);
  }
  return {
    pid: child.pid ?? 0,
    async stop() {
      if (gone !== null) return;
      child.kill('SIGINT');
      await exited;
    },
    release: () => child.unref(),
  };
}

async function accepts(spec: ServerSpec, port: number): Promise<boolean> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: spec.user,
    password: spec.password,
    database: 'postgres',
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    await client.end().catch(() => undefined);
    return false;
  }
}

function runToEnd(
  spec: ServerSpec,
  file: string,
  args: string[],
): Promise<{ code: number | null; text: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...LOCALE_ENV },
      ...(spec.runAs ? { uid: spec.runAs.uid, gid: spec.runAs.gid } : {}),
    });
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.on('error', (error) => resolve({ code: null, text: `${text}\n${firstLine(error)}` }));
    child.on('close', (code) => resolve({ code, text }));
  });
}

/** The line of Postgres's output that says why it stopped: the last FATAL/PANIC/ERROR, else the last. */
function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  // Our own readiness probes earn "the database system is starting up": not the reason.
  const severe = lines
    .filter(
      (line) => /\b(FATAL|PANIC|ERROR):/.test(line) && !/system is (starting up|shutting down)/.test(line),
    )
    .at(-1);
  const line = severe ?? lines.at(-1) ?? '';
  // Drop the "2026-11-23 10:00:00.000 UTC [123] " prefix of log lines.
  return line.replace(/^.*?\b(FATAL|PANIC|ERROR):\s*/, '$1: ');
}
