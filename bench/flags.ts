/**
 * The one command-line parser of the benchmarks. Every bench accepts the common flags, so
 * `pnpm bench --quick --seconds 3` can hand the same arguments to each of them; a bench adds its own
 * flags on top. A flag that is neither common nor the bench's own stops the run naming it.
 *
 * Common flags: `--quick` (a small, fast version), `--count N` (chain or data size), `--seconds S`
 * (length of each timed measurement), `--write` (write the figures into docs/, as a full run does),
 * `--batch-size N` (indexer batch size where a bench runs the indexer).
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

const COMMON_FLAGS = {
  quick: { type: 'boolean' },
  count: { type: 'string' },
  seconds: { type: 'string' },
  write: { type: 'boolean' },
  'batch-size': { type: 'string' },
} as const satisfies Options;

/** The common flags plus `own`, parsed from this process's arguments (a leading `--` is pnpm's). */
export function benchFlags<O extends Options = Record<never, never>>(own?: O, argv = process.argv.slice(2)) {
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  const options = { ...COMMON_FLAGS, ...own } as typeof COMMON_FLAGS & O;
  return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
}

/**
 * A numeric flag's value: `full` for a full run, `quick` under --quick. A value that is not a
 * positive number stops the run with the flag's name instead of benchmarking NaN.
 */
export function numberFlag(
  flags: { quick?: boolean | undefined },
  name: string,
  value: string | undefined,
  full: number,
  quick: number = full,
): number {
  if (value === undefined) return flags.quick ? quick : full;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} takes a positive number, not '${value}'`);
  return n;
}
