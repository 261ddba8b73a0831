import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '@mdq/config';
import { type DevnetServer, startDevnetServer } from '@mdq/devnet';

/**
 * The embedded chain of `mdq start`: a `small` devnet market that ends "now" and grows a block a
 * second. Its end time is fixed on first start and kept in the data directory, so a restart
 * regenerates the very same chain and the indexer's checkpoint stays valid.
 */
export async function startEmbeddedDevnet(config: Config): Promise<DevnetServer> {
  const dir = resolve(config.dataDir);
  const file = join(dir, 'devnet.json');
  const saved = JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as {
    endTimeMs?: number;
    seed?: number;
  };
  const endTimeMs = saved.endTimeMs ?? Math.floor(Date.now() / 1000) * 1000;
  const seed = saved.seed ?? 1;
  if (saved.endTimeMs === undefined) {
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${JSON.stringify({ endTimeMs, seed })}\n`);
  }
  return startDevnetServer({
    seed,
    preset: 'small',
    endTime: endTimeMs,
    blockIntervalMs: 1_000,
    port: config.devnetPort,
    marketplaceAddress: config.marketplaceAddress,
    lootboxAddress: config.lootboxAddress,
  });
}
