import { join } from 'node:path';
import { testFixturesRoot } from '@mdq/chain/fixtures';

/** The recorded transactions of the shared fixtures, or null when absent (a failure under CI=true). */
export function fixturesDir(): string | null {
  const root = testFixturesRoot();
  return root === null ? null : join(root, 'transactions');
}
