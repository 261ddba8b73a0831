import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** packages/devnet/test -> repository root. */
export const repoRoot = resolve(here, '../../..');

/** The shared fixtures folder (../shared next to the repository, or /work/shared), or null when absent. */
export function fixturesDir(): string | null {
  for (const candidate of [
    resolve(repoRoot, '../shared/fixtures/aptos-mainnet/transactions'),
    '/work/shared/fixtures/aptos-mainnet/transactions',
  ]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

export type Json = Record<string, unknown>;

export const field = (value: unknown, key: string): unknown => (value as Json)[key];
