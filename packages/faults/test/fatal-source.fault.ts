import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type DevnetServer, startDevnetServer, startGrpcServer } from '@mdq/devnet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy } from '../src/fault-proxy';
import { printFigures } from '../src/figures';
import { spawnMdq } from '../src/processes';

/*
 * Errors no retry cures stop `mdq indexer` at once with one line naming the fix and exit code 2:
 * a key the node or the stream refuses, a node or stream of another network, a start version the
 * node has pruned. A 429 is retried after what its Retry-After says. The database is the shared
 * Postgres (the indexer stops before it writes); the chain sources are private to this file.
 */
describe('a chain source that cannot be used as configured', () => {
  let devnet: DevnetServer;
  const closers: (() => Promise<void>)[] = [];
  const figures: Record<string, unknown> = {};
  const databases: TestDatabase[] = [];

  beforeAll(async () => {
    // A node that has pruned everything below version 300, as public fullnodes prune.
    devnet = await startDevnetServer({
      port: 0,
      seed: 7,
      transactionsCount: 600,
      blockIntervalMs: 0,
      oldestVersion: 300,
    });
  });
  afterAll(async () => {
    await printFigures('fatal-source', figures);
    for (const close of closers) await close();
    for (const test of databases) await test.drop();
    await devnet?.close();
  });

  const indexer = async (env: Record<string, string>) => {
    const test = await createTestDatabase();
    databases.push(test);
    return spawnMdq('indexer', ['indexer', '--until-caught-up', '--batch-size', '200'], {
      DATABASE_URL: test.url,
      APTOS_NETWORK: 'local',
      APTOS_FULLNODE_URL: devnet.url,
      ...env,
    });
  };

  /** Runs until exit; returns the exit code and every line the process printed. */
  const failing = async (scenario: string, env: Record<string, string>) => {
    const run = await indexer(env);
    const started = Date.now();
    const code = await run.exited;
    figures[scenario] = {
      exitCode: code,
      lines: run.lines.length,
      exitAfterMs: Date.now() - started,
      line: run.lines[0],
    };
    return { code, lines: run.lines };
  };

  const expectOneLine = (result: { code: number | null; lines: string[] }, ...mentions: string[]) => {
    expect(result.lines, result.lines.join('\n')).toHaveLength(1);
    const [line] = result.lines as [string];
    expect(line.startsWith('mdq: ')).toBe(true);
    for (const mention of mentions) expect(line).toContain(mention);
    expect(result.code).toBe(2);
  };

  it('a fullnode refusing the key (401)', async () => {
    const proxy = await startFaultProxy({ target: devnet.url, rate: 0, seed: 1, requireKey: 'right-key' });
    closers.push(proxy.close);
    const result = await failing('rest-wrong-key', {
      APTOS_FULLNODE_URL: proxy.url,
      APTOS_FULLNODE_API_KEY: 'wrong-key',
    });
    expectOneLine(result, 'HTTP 401', 'APTOS_FULLNODE_API_KEY');
  });

  it('a fullnode of another network (chain id on REST)', async () => {
    const result = await failing('rest-wrong-chain', { APTOS_NETWORK: 'mainnet' });
    expectOneLine(result, 'chain id 4', 'expects chain id 1', 'APTOS_NETWORK');
  });

  it('a start version the fullnode has pruned (410)', async () => {
    const result = await failing('rest-pruned-start', { MDQ_START_VERSION: '10' });
    expectOneLine(result, 'pruned version 10', 'oldest is 300', 'MDQ_START_VERSION', 'APTOS_GRPC_URL');
  });

  it('a Transaction Stream refusing the key (UNAUTHENTICATED)', async () => {
    const stream = await startGrpcServer(emptyChain(4), {
      port: 0,
      host: '127.0.0.1',
      chainId: 4,
      apiKey: 'right-key',
    });
    closers.push(stream.close);
    const result = await failing('grpc-wrong-key', {
      APTOS_GRPC_URL: stream.url,
      APTOS_GRPC_API_KEY: 'wrong-key',
      MDQ_START_VERSION: '300',
    });
    expectOneLine(result, 'UNAUTHENTICATED', 'APTOS_GRPC_API_KEY');
  });

  it('a Transaction Stream of another chain than the fullnode’s', async () => {
    const stream = await startGrpcServer(emptyChain(99), {
      port: 0,
      host: '127.0.0.1',
      chainId: 99,
      heartbeatMs: 50,
    });
    closers.push(stream.close);
    const result = await failing('grpc-wrong-chain', {
      APTOS_GRPC_URL: stream.url,
      MDQ_START_VERSION: '300',
    });
    expectOneLine(result, 'chain id 99', 'the fullnode (APTOS_FULLNODE_URL) serves chain id 4');
  });

  it('waits what a 429’s Retry-After says, then goes on; the key goes with every call', async () => {
    const proxy = await startFaultProxy({
      target: devnet.url,
      rate: 0,
      seed: 1,
      requireKey: 'right-key',
      throttleFirstPage: '2',
    });
    closers.push(proxy.close);
    const run = await indexer({
      APTOS_FULLNODE_URL: proxy.url,
      APTOS_FULLNODE_API_KEY: 'right-key',
    });
    const code = await run.exited;
    expect(code, run.lines.join('\n')).toBe(0);
    // The throttled page is asked again after the 429 (pages are read a few at a time, so others
    // may come between) and answered: nothing was skipped.
    const throttled = proxy.requests.findIndex((r) => r.status === 429);
    const { path } = proxy.requests[throttled] as { path: string };
    expect(path).toMatch(/^\/v1\/transactions\?start=300&/);
    expect(proxy.requests.slice(throttled + 1).some((r) => r.path === path && r.status === 200)).toBe(true);
    // The wait the indexer chose is the header's, not its own backoff (250 ms).
    const retry = run.lines
      .map(parse)
      .find((line) => line?.['msg'] === 'could not fetch transactions; retrying');
    expect(retry?.['retryInMs']).toBe(2000);
    // Data and tip calls alike carried the key.
    expect(proxy.requests.every((r) => r.keyed)).toBe(true);
    expect(proxy.requests.some((r) => r.path === '/v1' || r.path === '/v1/')).toBe(true);
    figures['rest-429'] = {
      exitCode: code,
      retryInMs: retry?.['retryInMs'],
      requests: proxy.requests.length,
    };
  });
});

/** A chain with nothing to stream: the server answers heartbeats, each naming its chain id. */
function emptyChain(chainId: number) {
  return {
    ledger: () => ({
      chainId,
      ledgerVersion: -1,
      oldestVersion: 0,
      ledgerTimestampUs: '0',
      epoch: 1,
      blockHeight: 0,
      oldestBlockHeight: 0,
    }),
    transactions: () => [],
  };
}

function parse(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}
