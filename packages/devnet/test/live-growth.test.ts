import { Aptos, AptosConfig, Network } from '@aptos-labs/ts-sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { type DevnetServer, startDevnetServer } from '../src/index';

const servers: DevnetServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

describe('live growth', () => {
  it('adds a block of K transactions every N ms, after the initial chain', async () => {
    const server = await startDevnetServer({
      preset: 'tiny',
      port: 0,
      blockIntervalMs: 40,
      liveBlockSize: 5,
    });
    servers.push(server);
    const aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: server.url }));
    const ledger = async () =>
      Number(((await (await fetch(server.url)).json()) as { ledger_version: string }).ledger_version);
    const first = await ledger();
    await new Promise((r) => setTimeout(r, 200));
    const later = await ledger();
    // The SDK's getLedgerInfo sees the same tip.
    // (Not through aptos.getLedgerInfo: the SDK memoizes it for 10 s per network name.)
    expect(later).toBeGreaterThan(first);
    expect((later - 599) % 5).toBe(0);
    const tip = await aptos.getTransactions({ options: { offset: 598, limit: 100 } });
    expect(tip.length).toBeGreaterThanOrEqual(later - 598 + 1);
    expect(tip.map((t) => Number((t as { version: string }).version))).toEqual(tip.map((_, i) => 598 + i));
    const times = tip.map((t) => Number((t as { timestamp: string }).timestamp));
    expect(times[1]).toBe(Date.UTC(2026, 0, 1) * 1000);
    expect(times[2]).toBe((times[1] as number) + 40_000);
  });

  it('ends at the wall clock with --end-time now', async () => {
    // Bounded by the clock before the start and after the answer: no assumption on how long it took.
    const before = Date.now();
    const server = await startDevnetServer({ preset: 'tiny', port: 0, endTime: 'now', blockIntervalMs: 0 });
    servers.push(server);
    const info = (await (await fetch(server.url)).json()) as { ledger_timestamp: string };
    const after = Date.now();
    const ledgerMs = Number(info.ledger_timestamp) / 1000;
    expect(ledgerMs).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1_000);
    expect(ledgerMs).toBeLessThanOrEqual(after);
    server.advance(2);
    expect(server.ledgerVersion()).toBe(619);
  });
});
