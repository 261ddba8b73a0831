import { readFile } from 'node:fs/promises';
import type { Db } from '@mdq/db';
import { upsertSocialSignals } from '@mdq/db/worker';
import { parseSignals } from './parse-signals';

/**
 * `mdq signals load FILE`: reads a CSV or JSON-lines file of social engagement and upserts it
 * (same collection and day replaces). The whole file is validated before anything is written.
 */
export async function loadSignals(db: Db, file: string): Promise<{ rows: number }> {
  const signals = parseSignals(await readFile(file, 'utf8'));
  await upsertSocialSignals(db, signals);
  return { rows: signals.length };
}
