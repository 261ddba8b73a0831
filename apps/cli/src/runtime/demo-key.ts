import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '@mdq/config';
import { type Db, ensureApiKey, generateApiKey } from '@mdq/db';

/**
 * The key `start` prints: MDQ_API_KEY when set, else a key generated once and kept in the data
 * directory (mode 600), so scripts and bookmarks keep working across restarts.
 */
export async function ensureDemoKey(config: Config, db: Db): Promise<string> {
  let key = config.apiKey;
  if (!key) {
    const file = join(resolve(config.dataDir), 'demo-api-key');
    key = (await readFile(file, 'utf8').catch(() => '')).trim();
    if (!key) {
      key = generateApiKey().key;
      await mkdir(resolve(config.dataDir), { recursive: true });
      await writeFile(file, `${key}\n`, { mode: 0o600 });
    }
  }
  await ensureApiKey(db, key, config.apiKey ? 'MDQ_API_KEY' : 'demo');
  return key;
}
