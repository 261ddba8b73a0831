import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testFixturesRoot } from '@mdq/chain/fixtures';

const here = dirname(fileURLToPath(import.meta.url));
/** packages/devnet/test -> repository root. */
export const repoRoot = resolve(here, '../../..');

/** The recorded transactions of the shared fixtures, or null when absent (a failure under CI=true). */
export function fixturesDir(): string | null {
  const root = testFixturesRoot();
  return root === null ? null : join(root, 'transactions');
}

export type Json = Record<string, unknown>;

export const field = (value: unknown, key: string): unknown => (value as Json)[key];
