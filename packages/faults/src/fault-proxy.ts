import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type FaultKind = 'gap' | 'truncated' | 'throttled' | 'failed' | 'closed' | 'slow';

export interface FaultProxyOptions {
  /** Fullnode base URL (…/v1) to forward to. */
  target: string;
  /** Share of transaction-page requests that get a fault (0..1). */
  rate: number;
  seed: number;
  /** Versions always left out of every page (a source that insists on a gap). */
  hole?: { from: number; to: number };
  /** Answer 401 to any request without `authorization: Bearer <requireKey>`, as a keyed gateway does. */
  requireKey?: string;
  /** Answer the first transaction page with 429 and this `Retry-After` (seconds). */
  throttleFirstPage?: string;
}

export interface FaultProxy {
  url: string;
  injected: Record<FaultKind, number>;
  /** Every request in order of arrival: status answered and path. */
  requests: { status: number; path: string; keyed: boolean }[];
  close(): Promise<void>;
}

const KINDS: FaultKind[] = ['gap', 'truncated', 'throttled', 'failed', 'closed', 'slow'];

/**
 * An HTTP proxy in front of a fullnode that breaks transaction pages the ways real nodes and
 * gateways do: a page starting later than asked (gap), a body cut mid-JSON, 429 with retry-after,
 * 500, a socket closed without an answer, a slow answer. Other routes pass through. Deterministic
 * for a seed (a fault plan must not depend on timing).
 */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target.endsWith('/') ? options.target : `${options.target}/`);
  const injected: Record<FaultKind, number> = {
    gap: 0,
    truncated: 0,
    throttled: 0,
    failed: 0,
    closed: 0,
    slow: 0,
  };
  let s = options.seed >>> 0;
  const random = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };

  const forward = (
    path: string,
  ): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const url = new URL(path.replace(/^\/v1\/?/, ''), target);
      const req = request(url, { method: 'GET', headers: { accept: 'application/json' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 502,
            headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });

  const requests: FaultProxy['requests'] = [];
  let throttledFirst = false;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = req.url ?? '/';
      const isPage = /^\/v1\/transactions(\?|$)/.test(path);
      const keyed =
        options.requireKey !== undefined && req.headers.authorization === `Bearer ${options.requireKey}`;
      const answered = (status: number) => requests.push({ status, path, keyed });
      if (options.requireKey !== undefined && !keyed) {
        answered(401);
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end('{"message":"invalid API key","error_code":"web_framework_error"}');
        return;
      }
      if (isPage && options.throttleFirstPage !== undefined && !throttledFirst) {
        throttledFirst = true;
        injected.throttled += 1;
        answered(429);
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': options.throttleFirstPage });
        res.end('{"message":"rate limited","error_code":"rate_limited"}');
        return;
      }
      const kind = isPage && random() < options.rate ? KINDS[Math.floor(random() * KINDS.length)] : undefined;
      if (kind === 'throttled') {
        injected.throttled += 1;
        answered(429);
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end('{"message":"rate limited","error_code":"rate_limited"}');
        return;
      }
      if (kind === 'failed') {
        injected.failed += 1;
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"message":"internal error","error_code":"internal_error"}');
        return;
      }
      if (kind === 'closed') {
        injected.closed += 1;
        req.socket.destroy();
        return;
      }
      const upstream = await forward(path);
      let body = upstream.body;
      if (isPage && upstream.status === 200) {
        let txs = JSON.parse(body.toString()) as { version?: string }[];
        const hole = options.hole;
        if (hole) txs = txs.filter((tx) => Number(tx.version) < hole.from || Number(tx.version) > hole.to);
        if (kind === 'gap' && txs.length > 3) {
          injected.gap += 1;
          txs = txs.slice(1 + Math.floor(random() * 3));
        }
        body = Buffer.from(JSON.stringify(txs));
        if (kind === 'truncated') {
          injected.truncated += 1;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(body.subarray(0, Math.floor(body.length / 2)));
          return;
        }
        if (kind === 'slow') {
          injected.slow += 1;
          await new Promise((resolve) => setTimeout(resolve, 2_000));
        }
      }
      answered(upstream.status);
      res.writeHead(upstream.status, upstream.headers);
      res.end(body);
    })().catch(() => {
      res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    injected,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
