import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { redisAnswers } from './redis';

/**
 * For tests that need Redis: REDIS_URL, else the local redis://127.0.0.1:6379. When none answers
 * the test file fails with one line saying how to start one (there is no embedded Redis; under
 * CI=true the service is expected anyway).
 */
export async function requireTestRedis(): Promise<string> {
  const url = process.env['REDIS_URL'] || 'redis://127.0.0.1:6379';
  if (!(await redisAnswers(url, 2_000))) {
    throw new Error(
      `no Redis answers at ${url.replace(/\/\/[^@]*@/, '//***@')}: start one (\`redis-server --daemonize yes\`, or \`docker run -d -p 6379:6379 redis:7\`) or set REDIS_URL`,
    );
  }
  return url;
}

export interface PrivateRedis {
  url: string;
  /** Kills the server (SIGKILL: an outage, not a shutdown). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * A redis-server of the test's own on a free port, without persistence (a restart loses every
 * key): for tests that stop or restart Redis, which must never touch the shared one.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    const deadline = Date.now() + 30_000;
    while (!(await redisAnswers(url, 1_000))) {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    running.kill('SIGKILL');
    await once(running, 'exit');
  };
  await start();
  return { url, start, stop, destroy: stop };
}

/** A TCP port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
