/**
 * `pnpm bench` (add `--quick` for a small version): runs every benchmark in turn, each in its own
 * process so one's memory does not skew another's, and prints their tables. The arguments are
 * handed to every bench unchanged: they all read the common flags of `flags.ts`.
 * A new bench is one more line in BENCHES.
 */
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchFlags } from './flags';

const BENCHES = [
  'ingest-bench.ts',
  'grpc-bench.ts',
  'devnet-bench.ts',
  'worker-bench.ts',
  'worker-devnet-bench.ts',
  'export-bench.ts',
  'media-bench.ts',
  'metadata-bench.ts',
  'api-bench.ts',
  'feed-bench.ts',
  'release-bench.ts',
  'overload-bench.ts',
  'soak-bench.ts',
];

const args = process.argv.slice(2).filter((a, i) => !(i === 0 && a === '--'));
// Only common flags make sense for all of them: refuse anything else before an hour of benches.
benchFlags({}, args);
const here = dirname(fileURLToPath(import.meta.url));
const failed: string[] = [];
for (const file of BENCHES) {
  console.log(`\n## ${file} ${args.join(' ')}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], {
    stdio: 'inherit',
    cwd: here,
  });
  if (result.status !== 0) failed.push(file);
}
if (failed.length > 0) console.error(`\nfailed: ${failed.join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
