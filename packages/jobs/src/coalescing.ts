import type { JobsOptions } from 'bullmq';

/**
 * The one coalescing rule of requested jobs, in both runners (BullMQ and in-process): requests that
 * share a key share a run.
 *
 * - The first request of a key with no run waiting opens a window: one run, `windowMs` later.
 * - A request while that run waits joins it without moving it (a delay that each request pushed
 *   forward would starve a key requested more often than the window).
 * - A request while the key's run is in flight is kept as one follow-up run, with the latest
 *   request's payload, created when the run ends and delayed by the window; later requests join it.
 *
 * So no request is lost (every request is answered by a run that starts after it), a key never has
 * two runs at once nor more than one waiting, and a request waits at most one window after the
 * first request not yet answered, plus the rest of a run in flight. A burst costs one run per
 * window, whatever its rate.
 */
export interface Coalescing {
  key: string;
  windowMs: number;
}

/**
 * The rule as BullMQ job options: deduplication by key without `extend`/`replace`, the request made
 * during a run kept once (`keepLastIfActive`; BullMQ adds it with these same options, delay
 * included, when the run finishes), and the window as the delay.
 */
export function coalescedJobOptions({
  key,
  windowMs,
}: Coalescing): Pick<JobsOptions, 'delay' | 'deduplication'> {
  return { delay: windowMs, deduplication: { id: key, keepLastIfActive: true } };
}
