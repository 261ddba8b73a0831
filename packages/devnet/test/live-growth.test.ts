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
    const initialLast = server.facts()?.chain.lastVersion as number;
    expect(first).toBeGreaterThanOrEqual(initialLast);
    // A live block is 5 user transactions between its metadata and its epilogue (blocks 150..198
    // carry no validator transaction), published whole.
    if (later < initialLast + 7 * 49) expect((later - initialLast) % 7).toBe(0);
    const tip = await aptos.getTransactions({ options: { offset: initialLast, limit: 100 } });
    expect(tip.length).toBeGreaterThanOrEqual(Math.min(100, later - initialLast + 1));
    expect(tip.map((t) => Number((t as { version: string }).version))).toEqual(
      tip.map((_, i) => initialLast + i),
    );
    expect(tip.slice(0, 3).map((t) => t.type)).toEqual([
      'block_epilogue_transaction',
      'block_metadata_transaction',
      'user_transaction',
    ]);
    const times = tip.map((t) => Number((t as { timestamp: string }).timestamp));
    expect(times[0]).toBe(Date.UTC(2026, 0, 1) * 1000);
    expect(times[1]).toBe((times[0] as number) + 40_000);
    expect(times[7]).toBe((times[0] as number) + 40_000);
    expect(times[8]).toBe((times[0] as number) + 80_000);
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
    const initialLast = server.ledgerVersion();
    server.advance(2);
    // Two blocks of 10 user transactions, each with its metadata and epilogue.
    expect(server.ledgerVersion()).toBe(initialLast + 24);
  });
});
