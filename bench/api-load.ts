/**
 * The servers the API benchmarks load (each its own process, `api-servers.ts`) and the load itself
 * (autocannon closed loops over a list of requests, drawn in turn).
 */
import { spawn } from 'node:child_process';
import type { IncomingHttpHeaders } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { Endpoint } from './api-mix';

const here = dirname(fileURLToPath(import.meta.url));

export interface BenchServer {
  url: string;
  /** The server's process (undefined if it failed to start). */
  pid: number | undefined;
  stop(): Promise<void>;
}

/**
 * `select1`, `hello` or `api` (api-servers.ts) on `databaseUrl` with a pool of `pool`, from the
 * bench folder `benchDir` (another checkout's, to compare trees), so that its own packages answer.
 */
export async function startServer(
  mode: 'select1' | 'hello' | 'api',
  databaseUrl: string,
  pool: number,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  benchDir = here,
): Promise<BenchServer> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', join(benchDir, 'api-servers.ts'), mode, databaseUrl, String(pool)],
    { cwd: benchDir, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`${mode} server exited (${code}): ${out}`)));
  });
  // Waits for the exit: a CPU profile is written as the process ends.
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    pid: child.pid,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** One request of a mix: a GET of `path`, or a POST of `body` to it. */
export interface Ask {
  path: string;
  body?: string;
}

/** An endpoint's requests as asks. */
export function asksOf(endpoint: Endpoint): Ask[] {
  const { bodies, paths } = endpoint;
  return bodies
    ? bodies.map((body) => ({ path: paths[0] as string, body }))
    : paths.map((path) => ({ path }));
}

export interface Result {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers, connection errors and time-outs. */
  errors: number;
  /** Mean response size (headers and body): a large page costs its bytes in every layer. */
  bytes: number;
}

export interface LoadOptions {
  headers?: Record<string, string>;
  /** Seconds of load (default 8), unless `amount` requests are sent instead. */
  duration?: number;
  amount?: number;
  /** Each answer's status, headers and body length (autocannon then reads every body: slower; not for the measured run). */
  onResponse?: (ask: Ask, status: number, headers: IncomingHttpHeaders, bodyLength: number) => void;
}

/** A connection's context: the ask its request in flight sent (one at a time: no pipelining). */
interface AskContext {
  ask: Ask;
}

/** `connections` closed loops, each sending the next ask of `asks` in turn. */
export async function loadAsks(
  url: string,
  asks: readonly Ask[],
  connections: number,
  options: LoadOptions = {},
): Promise<Result> {
  let n = 0;
  const headers = options.headers ?? {};
  const { onResponse } = options;
  const result = await autocannon({
    url,
    connections,
    ...(options.amount === undefined ? { duration: options.duration ?? 8 } : { amount: options.amount }),
    headers,
    requests: [
      {
        setupRequest: (request, context: object) => {
          const ask = asks[n++ % asks.length] as Ask;
          (context as AskContext).ask = ask;
          return ask.body === undefined
            ? { ...request, method: 'GET', path: ask.path }
            : {
                ...request,
                method: 'POST',
                path: ask.path,
                body: ask.body,
                headers: { ...headers, 'content-type': 'application/json' },
              };
        },
        ...(onResponse && {
          onResponse: (status: number, body: string, context: object, answer?: IncomingHttpHeaders) =>
            onResponse((context as AskContext).ask, status, answer ?? {}, body.length),
        }),
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    bytes: result.throughput.total / Math.max(1, result.requests.total),
  };
}
