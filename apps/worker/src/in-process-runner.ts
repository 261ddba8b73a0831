import {
  inProcessNotifier,
  type JobPolicy,
  memoryChangeBacklog,
  type QueueName,
  retryDelayMs,
} from '@mdq/jobs';
import { jobDuration, jobFailures, type QueueCounts, reportQueues } from '@mdq/telemetry';
import { logChangeLag, readChangeLag } from './change-lag';
import { collectionChangedJob } from './jobs/collection-changed';
import type { AnyJob, JobDefinition, WorkerBase, WorkerContext } from './jobs/define-job';
import { metadataCrawlJob } from './jobs/metadata-crawl';
import { jobsByName } from './jobs/registry';
import type { RunningWorker } from './running-worker';
import { nextRun, schedulesOf } from './schedules';
import type { ResolvedWorkerOptions } from './worker-options';

interface Entry {
  queue: QueueName;
  state: 'delayed' | 'queued' | 'running';
  /** Requested again while running: run this once more afterwards (BullMQ's keepLastIfActive). */
  next: (() => Promise<unknown>) | null;
}

/**
 * The worker without Redis: the registry's jobs, policies (attempts, backoff) and cron schedules,
 * run in this process one at a time per queue. Requests follow the coalescing rule of `@mdq/jobs`
 * (`coalescing.ts`) that BullMQ's deduplication applies: per key at most one run waiting, which a
 * request joins; a request during the key's run is remembered and runs once more after it, one
 * window later.
 */
export function startInProcessWorker(
  base: WorkerBase,
  options: ResolvedWorkerOptions,
  jobs: readonly AnyJob[],
): RunningWorker {
  const byName = jobsByName(jobs);
  const queues = new Set(jobs.map((job) => job.queue));
  /** By queue and coalescing key: BullMQ's deduplication ids are per queue too. */
  const entries = new Map<string, Entry>();
  const timers = new Set<NodeJS.Timeout>();
  const backlog = memoryChangeBacklog();
  // One lane per queue, as BullMQ runs one Worker per queue: a metadata crawl waiting on a slow host
  // (up to its 10 s deadline per document) must not hold a collection's recompute or the rankings.
  const lanes = new Map<QueueName, Promise<void>>();
  let closed = false;

  const later = (ms: number, fn: () => void) => {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const request = (
    queue: QueueName,
    key: string,
    policy: JobPolicy,
    run: () => Promise<unknown>,
    windowMs: number,
  ): void => {
    if (closed) return;
    const id = `${queue}\n${key}`;
    const existing = entries.get(id);
    if (existing) {
      if (existing.state === 'running') existing.next = run;
      return;
    }
    const entry: Entry = { queue, state: 'delayed', next: null };
    entries.set(id, entry);
    const attempt = (attemptsMade: number) => {
      entry.state = 'queued';
      const lane = (lanes.get(queue) ?? Promise.resolve()).then(async () => {
        entry.state = 'running';
        const started = Date.now();
        try {
          await run();
          jobDuration.observe({ queue, status: 'completed' }, (Date.now() - started) / 1000);
        } catch (err) {
          jobDuration.observe({ queue, status: 'failed' }, (Date.now() - started) / 1000);
          jobFailures.inc({ queue });
          const retryIn = closed ? null : retryDelayMs(policy, attemptsMade + 1);
          if (retryIn !== null) {
            entry.state = 'delayed';
            later(retryIn, () => attempt(attemptsMade + 1));
            return;
          }
          base.logger.error({ job: key, attempts: attemptsMade + 1, err }, 'job failed');
        }
        entries.delete(id);
        if (entry.next) request(queue, key, policy, entry.next, windowMs);
      });
      lanes.set(queue, lane);
    };
    later(windowMs, () => attempt(0));
  };

  const enqueue = async <P>(job: JobDefinition<P>, payload: P): Promise<void> => {
    const registered = byName.get(job.name);
    if (!registered) throw new Error(`no job ${job.name} in the registry`);
    const { key, windowMs } = job.coalesce(payload, options);
    request(job.queue, key, registered.policy, () => registered.run(ctx, payload), windowMs);
  };
  const ctx: WorkerContext = { ...base, backlog, enqueue };

  if (options.schedules) {
    for (const schedule of schedulesOf(jobs)) {
      const arm = () => {
        const now = Date.now();
        later(nextRun(schedule, now) - now, () => {
          void enqueue(schedule.job, schedule.payload);
          arm();
        });
      };
      arm();
    }
  }

  const notifier = inProcessNotifier(async (payload) => {
    await backlog.mark([payload.collectionId], payload.changedAt);
    await enqueue(collectionChangedJob, payload);
  });
  const stopLagLog = logChangeLag(backlog, base.logger, options.changeLagLogMs, options.changeLagWarnMs);
  const jobCounts = async (): Promise<QueueCounts> => {
    const counts: QueueCounts = {};
    for (const name of queues) counts[name] = { delayed: 0, waiting: 0, active: 0 };
    for (const entry of entries.values()) {
      const state = entry.state === 'queued' ? 'waiting' : entry.state === 'running' ? 'active' : 'delayed';
      const perQueue = counts[entry.queue];
      if (perQueue) perQueue[state] = (perQueue[state] ?? 0) + 1;
    }
    return counts;
  };
  reportQueues(jobCounts);

  return {
    notifier,
    enqueue,
    requestMetadataCrawl: (collectionId) => enqueue(metadataCrawlJob, { collectionId }),
    changeLag: () => readChangeLag(backlog),
    jobCounts,
    async close() {
      closed = true;
      stopLagLog();
      reportQueues(null);
      for (const t of timers) clearTimeout(t);
      timers.clear();
      // The job in flight finishes; waiting ones are dropped (the schedules redo them on restart).
      await Promise.all(lanes.values());
    },
  };
}
