import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { afterAll, describe, expect, it } from 'vitest';
import { fullnodeSource } from '../src/index';

/*
 * The fullnode source's tip is the node's own ledger, read fresh: the SDK's getLedgerInfo keeps
 * one answer for 10 s per network name, so it lagged a growing chain and, with two nodes in one
 * process (every devnet is "local"), answered for the wrong node.
 */
const servers: DevnetServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

/** A devnet of the tiny preset on a free port, closed after the file. */
const serve = async (options: Omit<Parameters<typeof startDevnetServer>[0], 'preset' | 'port'>) => {
  const server = await startDevnetServer({ preset: 'tiny', port: 0, ...options });
  servers.push(server);
  return server;
};

const ledgerOf = async (server: DevnetServer) =>
  Number(((await (await fetch(server.url)).json()) as { ledger_version: string }).ledger_version);

describe('the fullnode source tip', () => {
  it('answers for its own node when two nodes serve different chains', async () => {
    const small = await serve({ blockIntervalMs: 0, transactionsCount: 120 });
    const large = await serve({ blockIntervalMs: 0, transactionsCount: 400 });
    const [smallLedger, largeLedger] = [await ledgerOf(small), await ledgerOf(large)];
    expect(smallLedger).not.toBe(largeLedger);

    expect((await fullnodeSource(small.url).tip()).ledgerVersion).toBe(smallLedger);
    expect((await fullnodeSource(large.url).tip()).ledgerVersion).toBe(largeLedger);
  });

  it('follows a growing chain at once', async () => {
    const growing = await serve({ blockIntervalMs: 40, liveBlockSize: 3 });
    const source = fullnodeSource(growing.url);
    const first = (await source.tip()).ledgerVersion;
    // Wait, read off the node itself, until the chain has grown past the first tip.
    let grown = await ledgerOf(growing);
    while (grown <= first) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      grown = await ledgerOf(growing);
    }
    expect((await source.tip()).ledgerVersion).toBeGreaterThanOrEqual(grown);
  });
});
