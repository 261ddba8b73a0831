import { coalescedJobOptions, JOB_POLICIES, type QueueName } from '@mdq/jobs';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { CoalesceWindows, JobDefinition } from './jobs/define-job';

/** One of the worker's queues on BullMQ, its jobs' defaults the queue's policy. */
export function jobQueue(connection: Redis, prefix: string, name: QueueName): Queue {
  return new Queue(name, { connection, prefix, defaultJobOptions: JOB_POLICIES[name] });
}

/** Adds a run of `job` to `queue` (the job's queue) by the coalescing rule, with the job's policy. */
export async function addJob<P>(
  queue: Queue,
  job: JobDefinition<P>,
  payload: P,
  windows: CoalesceWindows,
): Promise<void> {
  await queue.add(job.name, payload, {
    ...job.policy,
    ...coalescedJobOptions(job.coalesce(payload, windows)),
  });
}
