import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * `mdq` from a release folder as the image runs it: `node --enable-source-maps dist/mdq.js <role>`,
 * node itself the process (no pnpm, no tsx, no shell), with only the given environment. With `uid`
 * (tests running as root), as that user and group, as the image's `USER`: setpriv execs node, so the
 * process is still node itself.
 */
export class ReleaseProcess {
  readonly child: ChildProcess;
  output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(mdq: string, args: string[], env: Record<string, string>, cwd: string, uid?: number) {
    const node = [process.execPath, '--enable-source-maps', mdq, ...args];
    const [command, ...argv] =
      uid === undefined ? node : ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', ...node];
    this.child = spawn(command as string, argv, {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/root', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      this.output += chunk.toString();
    };
    this.child.stdout?.on('data', collect);
    this.child.stderr?.on('data', collect);
    this.exited = new Promise((resolve) =>
      this.child.on('close', (code, signal) => resolve({ code, signal })),
    );
  }

  get pid(): number {
    return this.child.pid as number;
  }

  /** Resolves with the first match of `pattern` in the output; throws (with the output) past the deadline. */
  async waitFor(pattern: RegExp, timeoutMs = 90_000): Promise<RegExpExecArray> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(this.output);
      if (match) return match;
      if (Date.now() > until || this.child.exitCode !== null)
        throw new Error(`no ${pattern} from mdq ${this.child.spawnargs.slice(3).join(' ')}:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /**
   * SIGTERM, then the exit; a process still running after `killAfterMs` (far beyond the 10 s it is
   * given in production) is killed and reported, so a hang fails the test instead of stalling it.
   */
  async terminate(killAfterMs = 60_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), killAfterMs);
    const result = await this.exited;
    clearTimeout(timer);
    return result;
  }
}

/** The pids whose parent is `pid` (from /proc): a process run as the image runs it has none. */
export function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        // Field 4 (ppid) follows the command name, which is in parentheses and may hold spaces.
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // exited meanwhile
      }
    })
    .map(Number);
}

/** The argv of a running process. */
export function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

/**
 * A GET as a client is told to make it: a 503 carries `retry-after` (the API sheds load it cannot
 * finish in time, and a start on a busy machine can be that), and is asked again after it, a few
 * times. Any other answer, or a 503 without `retry-after`, is returned as it is.
 */
export async function getAsClient(url: string, headers: Record<string, string> = {}): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(url, { headers });
    const retryAfter = Number(response.headers.get('retry-after'));
    if (response.status !== 503 || !(retryAfter > 0) || attempt === 5) return response;
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
  }
}
