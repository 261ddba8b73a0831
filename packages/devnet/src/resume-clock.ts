import { type ChainOptions, type ChainResume, resolveConfig } from './config';
import { Timeline } from './timeline';

/** A restart less than this behind the wall clock just carries on (a quick Ctrl-C and start). */
const RESUME_AFTER_MS = 60_000;

/**
 * The clock rule of a chain that follows the wall clock across restarts (the embedded devnet of
 * `mdq start`): returns the `resumes` to start it with. Every block up to the one holding
 * `lastReadVersion` (the highest version anyone indexed; null = none) is kept exactly as it was.
 * When the block after it would be more than RESUME_AFTER_MS behind `nowMs`, the chain resumes
 * there: the missed time is filled at the initial chain's cadence (a few blocks an hour, so a
 * day-old chain catches up in seconds, with 24-hour windows as busy as the generated history),
 * then live blocks run from `nowMs`. Resumes after the kept block described blocks nobody read;
 * they are dropped.
 */
export function resumeClock(
  options: ChainOptions,
  lastReadVersion: number | null,
  nowMs: number,
): ChainResume[] {
  const timeline = new Timeline(resolveConfig(options));
  const read = lastReadVersion === null ? -1 : timeline.blockOf(lastReadVersion);
  const kept = Math.max(read, timeline.initialBlocks - 1);
  const resumes = (options.resumes ?? []).filter((r) => r.afterBlock < kept);
  const next = new Timeline(resolveConfig({ ...options, resumes })).blockTimestampUs(kept + 1);
  if (next >= (nowMs - RESUME_AFTER_MS) * 1000) return resumes;
  return [...resumes, { afterBlock: kept, atMs: nowMs }];
}
