import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface MdqProcess {
  name: string;
  child: ChildProcess;
  /** Every stdout and stderr line so far. */
  lines: string[];
  alive(): boolean;
  /**
   * SIGTERM, then waits for the exit (SIGKILL after `killAfterMs`, default 45 s: past the worker's
   * 30 s grace for a job in flight, so that a slow stop on a loaded machine is not taken for a hang).
   */
  stop(killAfterMs?: number): Promise<number | null>;
  exited: Promise<number | null>;
}

/** `pnpm mdq <args>` as its own process, the way an operator runs it. */
export function spawnMdq(name: string, args: string[], env: Record<string, string>): MdqProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'apps/cli/src/main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, MDQ_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(line);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    name,
    child,
    lines,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop(killAfterMs = 45_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Waits until `p` has printed its "running" line (`mdq worker running …`): a fault injected before a
 * process has connected tests its start-up checks, not how it lives through the fault.
 */
export async function untilRunning(p: MdqProcess, banner: string, timeoutMs = 300_000): Promise<void> {
  await until(`${p.name} to start`, async () => p.lines.some((line) => line.startsWith(banner)), timeoutMs);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface GrowingDevnet {
  process: MdqProcess;
  /** Resolves to the devnet's REST URL once it listens. */
  url: Promise<string>;
}

/**
 * `mdq devnet` of seed 1 (the chain every bench and soak indexes): `transactions` initial user
 * transactions, then a block of `liveBlockSize` every `blockIntervalMs`. `extra` are more flags.
 */
export function spawnGrowingDevnet(
  options: { transactions: number; blockIntervalMs: number; liveBlockSize: number; startTimeoutMs?: number },
  extra: string[] = [],
): GrowingDevnet {
  const devnet = spawnMdq(
    'devnet',
    [
      'devnet',
      '--seed',
      '1',
      '--transactions-count',
      String(options.transactions),
      '--block-interval-ms',
      String(options.blockIntervalMs),
      '--live-block-size',
      String(options.liveBlockSize),
      '--port',
      '0',
      ...extra,
    ],
    {},
  );
  const url = until(
    'the devnet to listen',
    async () => devnet.lines.map((l) => /devnet listening on (\S+)/.exec(l)?.[1]).find(Boolean),
    options.startTimeoutMs ?? 600_000,
  );
  // A caller that stops the devnet before it listens must not leave a rejection unhandled.
  url.catch(() => undefined);
  return { process: devnet, url };
}
