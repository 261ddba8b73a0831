import { afterAll, describe, expect, it } from 'vitest';
import {
  type ChainOptions,
  DevnetChain,
  type DevnetServer,
  type RestTransaction,
  resumeClock,
  startDevnetServer,
} from '../src/index';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 2, 1, 12);
// 150 blocks over 5 days: a catch-up block every 48 minutes, as busy as the generated history.
const base: ChainOptions = { preset: 'tiny', seed: 2, days: 5, endTimeMs: T0, blockIntervalMs: 1_000 };
const FILL = /::events::(ListingFilled|TokenOfferFilled|CollectionOfferFilled)Event$/;

const servers: DevnetServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function serve(resumes: ChainOptions['resumes'], nowMs: number): Promise<DevnetServer> {
  const { endTimeMs, ...options } = base;
  // One metadata origin for every server: token URIs name it, and each server has its own port.
  const server = await startDevnetServer({
    ...options,
    endTime: endTimeMs,
    resumes,
    nowMs,
    // No live timer: a block published by the clock between two readings would move the ledger
    // on a busy machine. Live blocks still come a second apart (the chain's cadence); `advance`
    // publishes them when the test says.
    blockIntervalMs: 0,
    port: 0,
    metadataOrigin: 'http://127.0.0.1:8090',
  });
  servers.push(server);
  return server;
}

async function ledger(server: DevnetServer): Promise<{ version: number; timestampUs: number }> {
  const info = (await (await fetch(server.url)).json()) as Record<string, string>;
  return { version: Number(info['ledger_version']), timestampUs: Number(info['ledger_timestamp']) };
}

/** Every transaction of the chain with a timestamp in [fromUs, toUs], read from the end. */
function window(chain: DevnetChain, tip: number, fromUs: number): RestTransaction[] {
  const out: RestTransaction[] = [];
  for (let end = tip + 1; end > 0; end -= 500) {
    const page = chain.range(Math.max(0, end - 500), Math.min(500, end));
    out.unshift(...page.filter((t) => Number(t.timestamp) >= fromUs));
    if (Number(page[0]?.timestamp) < fromUs) break;
  }
  return out;
}

describe('the clock of a chain that follows the wall clock across restarts', () => {
  it('a first start and a quick restart need no resume', () => {
    expect(resumeClock(base, null, T0)).toEqual([]);
    // Stopped after 30 minutes of live blocks, started again 20 s later.
    const indexed = new DevnetChain(base).world.timeline.blockRange(
      new DevnetChain(base).world.timeline.lastBlockAt((T0 + 30 * 60_000) * 1000),
    )[1];
    expect(resumeClock(base, indexed, T0 + 30 * 60_000 + 20_000)).toEqual([]);
  });

  it('a day later catches up to the wall clock, keeps what was indexed, and shows a live 24-hour market', async () => {
    // First run: 2 minutes of live blocks after the initial chain; the indexer stored them all.
    const stopped = T0 + 2 * 60_000;
    const first = await serve([], stopped);
    const indexed = (await ledger(first)).version;
    expect(indexed).toBe((first.facts()?.chain.lastVersion ?? 0) + 120 * 12 + 1);
    const kept = (first.chain as DevnetChain).range(indexed - 300, 301);

    // Restarted a day later with a pinned clock.
    const now = stopped + DAY;
    const resumes = resumeClock(base, indexed, now);
    expect(resumes).toHaveLength(1);
    const second = await serve(resumes, now);
    const chain = second.chain as DevnetChain;
    const tip = await ledger(second);
    // The ledger is at the wall clock: its last block is within one catch-up step of now.
    const stepUs = chain.world.timeline.initialStepUs;
    expect(tip.timestampUs).toBeLessThanOrEqual(now * 1000);
    expect(tip.timestampUs).toBeGreaterThan(now * 1000 - stepUs);
    // Everything the indexer stored is the same chain, byte for byte.
    expect(chain.range(indexed - 300, 301)).toEqual(kept);
    // The missed day is a few blocks an hour, not 86,400: the indexer catches up in seconds.
    expect(tip.version - indexed).toBeLessThan(200);

    const day = window(chain, tip.version, (now - DAY) * 1000);
    const users = day.filter((t) => t.type === 'user_transaction');
    const sales = users.filter((t) =>
      (t as { events: { type: string }[] }).events.some((e) => FILL.test(e.type)),
    );
    // A catch-up block of 4 user transactions every step of the initial chain, the day through.
    expect(users.length).toBeGreaterThanOrEqual((Math.floor((DAY * 1000) / stepUs) - 1) * 4);
    expect(sales.length).toBeGreaterThan(0);
    const times = day.map((t) => Number(t.timestamp));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    // Live blocks follow from now, one a second.
    second.advance(1);
    const live = await ledger(second);
    expect(live.timestampUs).toBe(now * 1000 + 1_000_000);

    // Restarted again at once: the same resumes, the same chain.
    expect(resumeClock({ ...base, resumes }, tip.version, now + 5_000)).toEqual(resumes);
    const third = await serve(resumes, now + 5_000);
    expect((third.chain as DevnetChain).range(tip.version - 50, 51)).toEqual(
      chain.range(tip.version - 50, 51),
    );
  });
});
