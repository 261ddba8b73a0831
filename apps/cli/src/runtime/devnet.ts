import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '@mdq/config';
import { type ChainResume, type DevnetServer, resumeClock, startDevnetServer } from '@mdq/devnet';

/** What `<dataDir>/devnet.json` keeps so that a restart regenerates the very same chain. */
interface SavedChain {
  endTimeMs?: number;
  seed?: number;
  resumes?: ChainResume[];
}

export interface EmbeddedClock {
  /** The wall clock (ms); a test pins it. */
  nowMs: number;
  /** The highest version the indexer has stored (null before the first batch). */
  lastIndexedVersion: number | null;
}

/**
 * The embedded chain of `mdq start`: a `small` devnet market that ends "now" at the first start
 * and grows a block a second while mdq runs. Its end time is fixed on first start and kept in the
 * data directory with every resume, so a restart regenerates the very same chain up to what the
 * indexer stored and its checkpoint stays valid. A restart that finds the chain behind the wall
 * clock resumes it at now (resumeClock): the missed time is filled at the generated history's
 * cadence, so 24-hour windows show a live market again within seconds.
 */
export async function startEmbeddedDevnet(config: Config, clock: EmbeddedClock): Promise<DevnetServer> {
  const dir = resolve(config.dataDir);
  const file = join(dir, 'devnet.json');
  const saved = JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as SavedChain;
  const chain = {
    seed: saved.seed ?? 1,
    preset: 'small' as const,
    endTimeMs: saved.endTimeMs ?? Math.floor(clock.nowMs / 1000) * 1000,
    blockIntervalMs: 1_000,
    marketplaceAddress: config.marketplaceAddress,
    lootboxAddress: config.lootboxAddress,
  };
  const resumes = resumeClock(
    { ...chain, resumes: saved.resumes ?? [] },
    clock.lastIndexedVersion,
    clock.nowMs,
  );
  const next: SavedChain = { endTimeMs: chain.endTimeMs, seed: chain.seed, resumes };
  if (JSON.stringify(next) !== JSON.stringify({ resumes: [], ...saved })) {
    await mkdir(dir, { recursive: true });
    // Written whole then renamed: a crash mid-write must not lose the chain's history.
    await writeFile(`${file}.tmp`, `${JSON.stringify(next)}\n`);
    await rename(`${file}.tmp`, file);
  }
  const { endTimeMs, ...options } = chain;
  return startDevnetServer({
    ...options,
    endTime: endTimeMs,
    resumes,
    nowMs: clock.nowMs,
    port: config.devnetPort,
  });
}
