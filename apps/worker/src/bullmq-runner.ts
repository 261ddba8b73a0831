import { bullmqNotifier, createRedis, type QueueName, redisChangeBacklog, reportErrors } from '@mdq/jobs';
import { jobDuration, jobFailures, type QueueCounts, reportQueues } from '@mdq/telemetry';
import { type Job, type Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { addJob, jobQueue } from './bullmq-jobs';
import { logChangeLag, readChangeLag } from './change-lag';
import type { AnyJob, WorkerBase, WorkerContext } from './jobs/define-job';
import { metadataCrawlJob } from './jobs/metadata-crawl';
import { jobsByName } from './jobs/registry';
import { queueErrorSink, type WorkerLogger } from './logger';
import type { RunningWorker } from './running-worker';
import { type ScheduleDefinition, schedulesOf } from './schedules';
import type { ResolvedWorkerOptions } from './worker-options';

/** Upserts job schedulers; the same ids on every start, so restarts update in place. */
async function upsertSchedules(queues: QueueOf, schedules: readonly ScheduleDefinition[]): Promise<void> {
  for (const s of schedules) {
    await queues(s.job).upsertJobScheduler(
      s.id,
      { pattern: s.pattern, tz: 'UTC' },
      { name: s.job.name, data: s.payload, opts: s.job.policy },
    );
  }
}

/** The queue a job is added to. */
type QueueOf = (job: AnyJob) => Queue;

/**
 * The worker on BullMQ: one Queue and one Worker per queue the registry names, each Worker running
 * a job by its name; the registry's schedules as job schedulers.
 */
export async function startBullmqWorker(
  base: WorkerBase,
  redisUrl: string,
  options: ResolvedWorkerOptions,
  jobs: readonly AnyJob[],
): Promise<RunningWorker> {
  const { prefix } = options;
  const { logger } = base;
  const byName = jobsByName(jobs);
  const schedules = schedulesOf(jobs);
  // Every connection and every Queue and Worker reports its 'error' events here: one line per
  // distinct failure with a count, never a stack trace per reconnect attempt.
  const onError = queueErrorSink(logger);
  // Queues and the notifier share one connection; each Worker gets its own, closed by us on close()
  // (BullMQ leaves connections it was handed open).
  const connection = createRedis(redisUrl, onError);
  const queues = new Map<QueueName, Queue>();
  for (const job of jobs) {
    if (!queues.has(job.queue))
      queues.set(job.queue, reportErrors(onError, jobQueue(connection, prefix, job.queue)));
  }
  const queueOf: QueueOf = (job) => {
    const queue = queues.get(job.queue);
    if (!queue) throw new Error(`no job of the registry uses the queue ${job.queue}`);
    return queue;
  };
  const backlog = redisChangeBacklog(connection, prefix);
  const ctx: WorkerContext = {
    ...base,
    backlog,
    async enqueue(job, payload) {
      if (!byName.has(job.name)) throw new Error(`no job ${job.name} in the registry`);
      await addJob(queueOf(job), job, payload, options);
    },
  };
  if (options.schedules) await upsertSchedules(queueOf, schedules);

  const workerConnections: Redis[] = [];
  const workers = [...queues.keys()].map((name) => {
    const workerConnection = createRedis(redisUrl, onError);
    workerConnections.push(workerConnection);
    return new Worker(
      name,
      (job: Job) => {
        const registered = byName.get(job.name);
        // A job of a name the registry no longer has (left in Redis by an older version) fails.
        if (!registered || registered.queue !== name) throw new Error(`no job ${job.name} on ${name}`);
        return registered.run(ctx, job.data);
      },
      { connection: workerConnection, prefix, concurrency: options.concurrency[name] ?? 1 },
    );
  });
  for (const worker of workers) {
    worker.on('completed', (job: Job) =>
      jobDuration.observe({ queue: worker.name, status: 'completed' }, runSeconds(job)),
    );
    worker.on('failed', (job: Job | undefined, err: Error) => {
      if (job) jobDuration.observe({ queue: worker.name, status: 'failed' }, runSeconds(job));
      jobFailures.inc({ queue: worker.name });
      logger.error({ queue: worker.name, jobId: job?.id, attempts: job?.attemptsMade, err }, 'job failed');
    });
    reportErrors(onError, worker);
  }
  const notifier = bullmqNotifier(connection, {
    prefix,
    windowMs: options.collectionChangedDelayMs,
    onError,
  });
  // Queue depth for /metrics: counted in Redis at scrape time, so every worker replica reports the
  // same shared queues.
  const jobCounts = async (): Promise<QueueCounts> =>
    Object.fromEntries(
      await Promise.all(
        [...queues.values()].map(
          async (q) => [q.name, await q.getJobCounts('waiting', 'delayed', 'active', 'failed')] as const,
        ),
      ),
    );
  reportQueues(jobCounts);
  const stopLagLog = logChangeLag(backlog, logger, options.changeLagLogMs, options.changeLagWarnMs);
  const stopScheduleWatch = options.schedules
    ? watchSchedules(queueOf, schedules, connection, logger, options.scheduleCheckMs)
    : () => {};

  return {
    notifier,
    enqueue: ctx.enqueue,
    requestMetadataCrawl: (collectionId) => ctx.enqueue(metadataCrawlJob, { collectionId }),
    changeLag: () => readChangeLag(backlog),
    jobCounts,
    async close() {
      stopLagLog();
      stopScheduleWatch();
      // Let in-flight jobs finish; past the grace period force-close, which leaves them to be
      // picked up again as stalled jobs by the next worker (every job is safe to run twice).
      await Promise.all(workers.map((w) => closeWithGrace(w, options.shutdownGraceMs)));
      reportQueues(null);
      await notifier.close();
      await Promise.all([...queues.values()].map((q) => q.close()));
      await Promise.all([connection, ...workerConnections].map(quit));
    },
  };
}

/** Run time of a finished job attempt (BullMQ stamps both ends). */
function runSeconds(job: Job): number {
  return job.finishedOn && job.processedOn ? (job.finishedOn - job.processedOn) / 1000 : 0;
}

/**
 * Job schedulers live only in Redis: a Redis restarted without persistence (or flushed) comes back
 * without them and nothing would run on schedule again. Re-creates the missing ones whenever the
 * connection becomes ready again and on a periodic check (a failover to an empty replica need not
 * drop our connection). Returns the function that stops watching.
 */
function watchSchedules(
  queues: QueueOf,
  schedules: readonly ScheduleDefinition[],
  connection: Redis,
  logger: WorkerLogger,
  intervalMs: number,
): () => void {
  // One check at a time; a reason that arrives during a check runs one more check after it.
  let running = false;
  let stopped = false;
  let queued: string | null = null;
  const check = (reason: string): void => {
    if (stopped) return;
    if (running) {
      queued = reason;
      return;
    }
    running = true;
    ensureSchedules(queues, schedules, logger, reason)
      .catch((err: unknown) => logger.warn({ reason, err }, 'job scheduler check failed'))
      .finally(() => {
        running = false;
        const next = queued;
        queued = null;
        if (next !== null) check(next);
      });
  };
  const onReady = () => check('redis ready');
  connection.on('ready', onReady);
  const timer = setInterval(() => check('periodic check'), intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    connection.off('ready', onReady);
    clearInterval(timer);
  };
}

/** Upserts the schedules that Redis does not hold; returns the ids it re-created. */
async function ensureSchedules(
  queues: QueueOf,
  schedules: readonly ScheduleDefinition[],
  logger: WorkerLogger,
  reason: string,
): Promise<string[]> {
  const present = new Set<string>();
  for (const queue of new Set(schedules.map((s) => queues(s.job)))) {
    for (const s of await queue.getJobSchedulers()) present.add(s.key);
  }
  const missing = schedules.filter((s) => !present.has(s.id));
  if (missing.length === 0) return [];
  await upsertSchedules(queues, missing);
  const ids = missing.map((s) => s.id);
  logger.warn({ reason, ids }, 'job schedulers re-created');
  return ids;
}

async function closeWithGrace(worker: Worker, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const graceful = worker.close();
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), graceMs);
  });
  const outcome = await Promise.race([graceful.then(() => 'closed' as const), expired]);
  clearTimeout(timer);
  if (outcome === 'expired') await worker.close(true);
}

async function quit(connection: Redis): Promise<void> {
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}
