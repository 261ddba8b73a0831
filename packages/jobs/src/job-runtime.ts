import { CronExpressionParser } from 'cron-parser';
import { QUEUE_NAMES, type QueueName } from './queues';

/**
 * The job runtime, described once: per queue, how many attempts a job gets, how long it waits
 * between them and how much history is kept. BullMQ takes these objects as its job options; the
 * in-process runner (no Redis) reads the same numbers through `retryDelayMs`.
 */
export interface JobPolicy {
  attempts: number;
  /** BullMQ's exponential backoff: the n-th retry waits delay × 2^(n−1). */
  backoff: { type: 'exponential'; delay: number };
  removeOnComplete: boolean | { count: number };
  removeOnFail: { count: number };
}

export const JOB_POLICIES: Readonly<Record<QueueName, JobPolicy>> = {
  [QUEUE_NAMES.collectionChanged]: {
    attempts: 5,
    backoff: { type: 'exponential', delay: 1_000 },
    removeOnComplete: { count: 1_000 },
    removeOnFail: { count: 10_000 },
  },
  [QUEUE_NAMES.aggregates]: {
    attempts: 4,
    backoff: { type: 'exponential', delay: 5_000 },
    removeOnComplete: { count: 500 },
    // Failed jobs stay (reason, stack, attempts) as the record of what went wrong.
    removeOnFail: { count: 5_000 },
  },
  [QUEUE_NAMES.uriCache]: {
    // The resolver records remote failures itself; retries only cover database errors.
    attempts: 3,
    backoff: { type: 'exponential', delay: 2_000 },
    // Completed jobs are not kept: every sweep requests up to 200 collections.
    removeOnComplete: true,
    removeOnFail: { count: 5_000 },
  },
};

/**
 * How long the retry after `attemptsMade` failed attempts waits, or null when the job has used all
 * its attempts. The same formula as BullMQ's built-in exponential backoff (without jitter).
 */
export function retryDelayMs(policy: JobPolicy, attemptsMade: number): number | null {
  if (attemptsMade >= policy.attempts) return null;
  return Math.round(2 ** (attemptsMade - 1) * policy.backoff.delay);
}

/**
 * The next instant of a cron pattern (UTC) strictly after `after` (epoch ms). BullMQ computes its
 * job schedulers' instants with the same parser, so both runtimes fire at the same times.
 */
export function nextCronRun(pattern: string, after: number): number {
  return CronExpressionParser.parse(pattern, { currentDate: new Date(after), tz: 'UTC' })
    .next()
    .getTime();
}

/**
 * Collection-changed work runs at most this long after the first change not yet processed (the
 * window): the first change opens it, every change inside it joins the same recompute.
 */
export const DEFAULT_COLLECTION_CHANGED_WINDOW_MS = 2_000;
