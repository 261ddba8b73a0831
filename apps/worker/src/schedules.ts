import { nextCronRun } from '@mdq/jobs';
import type { AnyJob } from './jobs/define-job';
import { JOBS } from './jobs/registry';

/**
 * One schedule, one clock: `pattern` (cron, UTC) is what BullMQ's job scheduler runs and what the
 * in-process runner computes its next instant from (`nextRun`, the same cron parser).
 */
export interface ScheduleDefinition {
  id: string;
  pattern: string;
  job: AnyJob;
  payload: unknown;
}

/** Every schedule the jobs of `jobs` declare. */
export function schedulesOf(jobs: readonly AnyJob[]): ScheduleDefinition[] {
  return jobs.flatMap((job) =>
    job.schedules.map((s) => ({ id: s.id, pattern: s.pattern, job, payload: s.payload })),
  );
}

export const SCHEDULES: readonly ScheduleDefinition[] = schedulesOf(JOBS);

/** The next instant of a schedule strictly after `now` (epoch ms). */
export function nextRun(schedule: ScheduleDefinition, now: number): number {
  return nextCronRun(schedule.pattern, now);
}
