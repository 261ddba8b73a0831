/**
 * `pnpm --filter @mdq/bench bench:release [--runs N]`: start-up time and memory of the built release
 * (`node --enable-source-maps dist/mdq.js`, what the image runs) against the source run through tsx
 * (`node --import tsx apps/cli/src/main.ts`, what `pnpm mdq` runs), side by side, runs interleaved.
 *
 * Per run and variant: `mdq --version` (wall time to exit: the CLI's own start), `mdq api` and
 * `mdq worker` (spawn → their "listening" / "running" line), `mdq indexer` (spawn → caught up on a
 * tiny devnet chain from an empty checkpoint, fresh database each run), and each long-running
 * process's RSS once ready. Medians are printed.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '@mdq/db/testing';
import { benchFlags, numberFlag } from './flags';

const flags = benchFlags({ runs: { type: 'string' } });
const runs = numberFlag(flags, 'runs', flags.runs, 5, 2);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'mdq-release-bench-'));
const release = join(work, 'release');
execFileSync('bash', [join(root, 'scripts', 'release.sh'), release], { cwd: root, stdio: 'pipe' });

const VARIANTS = {
  release: { argv: ['--enable-source-maps', join(release, 'dist', 'mdq.js')], cwd: release },
  'source (tsx)': { argv: ['--import', 'tsx', join(root, 'apps', 'cli', 'src', 'main.ts')], cwd: root },
} as const;
type Variant = keyof typeof VARIANTS;

const baseEnv = {
  PATH: process.env['PATH'] ?? '',
  HOME: process.env['HOME'] ?? '/root',
  REDIS_URL: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
  APTOS_NETWORK: 'local',
  MDQ_LOG_LEVEL: 'warn',
  MDQ_QUEUE_PREFIX: `mdq-release-bench-${process.pid}`,
  MDQ_DATA_DIR: join(work, 'data'),
};

function start(
  variant: Variant,
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; output: () => string } {
  const { argv, cwd } = VARIANTS[variant];
  const child = spawn(process.execPath, [...argv, ...args], {
    cwd,
    env: { ...baseEnv, ...env },
    stdio: 'pipe',
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

/** Milliseconds from spawn to `pattern` in the output, and the RSS (MB) at that moment. */
async function timeTo(variant: Variant, args: string[], env: Record<string, string>, pattern: RegExp) {
  const started = performance.now();
  const { child, output } = start(variant, args, env);
  while (!pattern.test(output())) {
    if (child.exitCode !== null) throw new Error(`mdq ${args.join(' ')} exited:\n${output()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const ms = performance.now() - started;
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const rssMb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('close', r));
  return { ms, rssMb, match: pattern.exec(output()) };
}

const devnet = start(
  'release',
  ['devnet', '--preset', 'tiny', '--port', '0', '--block-interval-ms', '0'],
  {},
);
while (!/listening on/.test(devnet.output())) await new Promise((r) => setTimeout(r, 50));
const fullnode = /listening on (\S+\/v1)/.exec(devnet.output())?.[1] as string;

const samples: Record<string, number[]> = {};
const add = (key: string, value: number) => {
  samples[key] = [...(samples[key] ?? []), value];
};
for (let run = 0; run < runs; run++) {
  for (const variant of Object.keys(VARIANTS) as Variant[]) {
    const database = await createTestDatabase();
    const env = { DATABASE_URL: database.url, APTOS_FULLNODE_URL: fullnode };
    const version = await timeTo(variant, ['--version'], env, /commit/);
    add(`${variant}|--version ms`, version.ms);
    const api = await timeTo(variant, ['api'], { ...env, PORT: '0' }, /listening on/);
    add(`${variant}|api ms`, api.ms);
    add(`${variant}|api RSS MB`, api.rssMb);
    const worker = await timeTo(variant, ['worker'], env, /worker running/);
    add(`${variant}|worker ms`, worker.ms);
    add(`${variant}|worker RSS MB`, worker.rssMb);
    const indexer = await timeTo(variant, ['indexer'], env, /caught up at version/);
    add(`${variant}|indexer ms`, indexer.ms);
    add(`${variant}|indexer RSS MB`, indexer.rssMb);
    await database.drop();
  }
}
devnet.child.kill('SIGTERM');
rmSync(work, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const measures = [...new Set(Object.keys(samples).map((k) => k.split('|')[1] as string))];
const variants = Object.keys(VARIANTS) as Variant[];
console.log(`\nmedians of ${runs} interleaved runs (min–max)\n`);
console.log(`| measure | ${variants.join(' | ')} |`);
console.log(`| --- | ${variants.map(() => '---').join(' | ')} |`);
for (const measure of measures) {
  const cells = variants.map((v) => {
    const xs = samples[`${v}|${measure}`] ?? [];
    return `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
  });
  console.log(`| ${measure} | ${cells.join(' | ')} |`);
}
process.exit(0);
