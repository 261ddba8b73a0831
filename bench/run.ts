/**
 * `pnpm bench` (add `--quick` for a small version): runs every benchmark in turn, each in its own
 * process so one's memory does not skew another's, and prints their tables.
 */
import { spawnSync } from 'node:child_process';

const quick = process.argv.includes('--quick');
const benches: [string, string[]][] = [
  ['ingest-bench.ts', quick ? ['--quick'] : []],
  ['devnet-bench.ts', quick ? ['--count', '100000', '--seconds', '5'] : []],
  ['worker-bench.ts', quick ? ['--quick'] : []],
  ['export-bench.ts', quick ? ['--quick'] : []],
  ['media-bench.ts', quick ? ['--quick'] : []],
  ['api-bench.ts', quick ? ['--quick'] : []],
  ['feed-bench.ts', quick ? ['--clients', '20', '--blocks', '10', '--count', '1000'] : []],
];
let failed = 0;
for (const [file, args] of benches) {
  console.log(`\n## ${file} ${args.join(' ')}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
