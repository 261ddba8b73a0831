import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@mdq/config';
import type { DevnetServer } from '@mdq/devnet';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedDevnet } from '../src/runtime/devnet';

const dataDir = mkdtempSync(join(tmpdir(), 'mdq-clock-'));
/** A free port, the same for every start: token URIs name the chain's server address. */
const port = await new Promise<number>((done) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as AddressInfo;
    probe.close(() => done(port));
  });
});
const config = loadConfig({ MDQ_DATA_DIR: dataDir, MDQ_DEVNET_PORT: String(port) });
const servers: DevnetServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 5, 1, 9, 30);
const saved = () => JSON.parse(readFileSync(join(dataDir, 'devnet.json'), 'utf8')) as Record<string, unknown>;

async function start(nowMs: number, lastIndexedVersion: number | null) {
  const devnet = await startEmbeddedDevnet(config, { nowMs, lastIndexedVersion });
  servers.push(devnet);
  const info = (await (await fetch(devnet.url)).json()) as Record<string, string>;
  return { devnet, version: Number(info['ledger_version']), timestampUs: Number(info['ledger_timestamp']) };
}

/* `mdq start`'s embedded chain, started with a pinned clock: first today, then a day later. */
describe('the embedded chain after a day off', () => {
  it('is at the wall clock again, with the indexed part unchanged, and stays so across restarts', async () => {
    const began = Date.now();
    const first = await start(T0, null);
    // The chain ends at the pinned clock, then adds a live block a second of real time: on a busy
    // machine one may come before the first read.
    const liveBlocksMs = Math.floor((Date.now() - began) / 1000) * 1000;
    expect(first.timestampUs).toBeGreaterThanOrEqual(T0 * 1000);
    expect(first.timestampUs).toBeLessThanOrEqual((T0 + liveBlocksMs) * 1000);
    expect(saved()).toEqual({ endTimeMs: T0, seed: 1, resumes: [] });
    // Ten minutes of mdq: the indexer stored every live block.
    first.devnet.advance(600);
    const indexed = first.devnet.ledgerVersion();
    const stored = first.devnet.chain?.range(indexed - 100, 101);
    await first.devnet.close();

    const now = T0 + 10 * 60_000 + DAY;
    const second = await start(now, indexed);
    expect(second.timestampUs).toBeLessThanOrEqual(now * 1000);
    // Within one block of the generated history's cadence (52 minutes for the small chain).
    expect(second.timestampUs).toBeGreaterThan((now - 3_600_000) * 1000);
    expect(second.devnet.chain?.range(indexed - 100, 101)).toEqual(stored);
    const { resumes } = saved() as { resumes: { afterBlock: number; atMs: number }[] };
    expect(resumes).toHaveLength(1);
    expect(resumes[0]?.atMs).toBe(now);
    await second.devnet.close();

    // The next start a minute later regenerates the same chain from the file alone.
    const third = await start(now + 60_000, second.version);
    expect(saved()['resumes']).toEqual(resumes);
    expect(third.devnet.chain?.range(second.version - 50, 51)).toEqual(
      second.devnet.chain?.range(second.version - 50, 51),
    );
  });
});
