import {
  bullmqNotifier,
  type ChangeNotifier,
  type CollectionChangedPayload,
  createRedis,
  QUEUE_NAMES,
  redisChangeBacklog,
  reportErrors,
} from '@mdq/jobs';
import { jobDuration, jobFailures, reportQueues } from '@mdq/telemetry';
import { type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { type ChangeLag, logChangeLag, readChangeLag } from './change-lag';
import type { WorkerContext } from './context';
import { queueErrorSink, type WorkerLogger } from './logger';
import {
  AGGREGATE_JOB_OPTIONS,
  type AggregatePayload,
  aggregatesQueue,
  enqueueRankingsRefresh,
  processAggregate,
} from './queues/aggregates';
import { runCollectionChanged } from './queues/collection-changed';
import {
  enqueueMetadataCrawl,
  enqueueUriResolve,
  processUriCache,
  type UriCachePayload,
  uriCacheQueue,
} from './queues/uri-cache';
import { SCHEDULES, type ScheduleDefinition } from './schedules';
import type { ResolvedWorkerOptions } from './worker-options';

export interface RunningWorker {
  notifier: ChangeNotifier;
  requestMetadataCrawl(collectionId: string): Promise<void>;
  changeLag(): Promise<ChangeLag>;
  close(): Promise<void>;
}

/** Upserts job schedulers (all by default); the same ids on every start, so restarts update in place. */
async function upsertSchedules(
  queue: Queue<AggregatePayload>,
  schedules: readonly ScheduleDefinition[] = SCHEDULES,
): Promise<void> {
  for (const s of schedules) {
    await queue.upsertJobScheduler(
      s.id,
      { pattern: s.pattern, tz: 'UTC' },
      { name: s.payload.task, data: s.payload, opts: AGGREGATE_JOB_OPTIONS },
    );
  }
}

export async function startBullmqWorker(
  base: Omit<WorkerContext, 'requestRankingsRefresh' | 'requestUriResolve' | 'requestMetadataCrawl'>,
  redisUrl: string,
  options: ResolvedWorkerOptions,
): Promise<RunningWorker> {
  const { prefix } = options;
  const { logger } = base;
  // Every connection and every Queue and Worker reports its 'error' events here: one line per
  // distinct failure with a count, never a stack trace per reconnect attempt.
  const onError = queueErrorSink(logger);
  // Queues and the notifier share one connection; each Worker gets its own, closed by us on close()
  // (BullMQ leaves connections it was handed open).
  const connection = createRedis(redisUrl, onError);
  const workerConnections = [
    createRedis(redisUrl, onError),
    createRedis(redisUrl, onError),
    createRedis(redisUrl, onError),
  ] as const;
  const aggregates = reportErrors(onError, aggregatesQueue(connection, prefix));
  const uris = reportErrors(onError, uriCacheQueue(connection, prefix));
  const ctx: WorkerContext = {
    ...base,
    requestRankingsRefresh: () => enqueueRankingsRefresh(aggregates, options.rankingsRefreshBucketMs),
    requestUriResolve: (id) => enqueueUriResolve(uris, id),
    requestMetadataCrawl: (id) => enqueueMetadataCrawl(uris, id),
  };
  if (options.schedules) await upsertSchedules(aggregates);
  const backlog = redisChangeBacklog(connection, prefix);

  const workers: Worker[] = [
    new Worker<CollectionChangedPayload>(
      QUEUE_NAMES.collectionChanged,
      (job) => runCollectionChanged(ctx, backlog, job.data),
      { connection: workerConnections[0], prefix, concurrency: options.concurrency.collectionChanged },
    ),
    new Worker<AggregatePayload>(
      AGGREGATES_QUEUE_NAME,
      (job) => processAggregate(ctx, job.data, options.clock()),
      {
        connection: workerConnections[1],
        prefix,
        concurrency: options.concurrency.aggregates,
      },
    ),
    new Worker<UriCachePayload>(QUEUE_NAMES.uriCache, (job) => processUriCache(ctx, job.data), {
      connection: workerConnections[2],
      prefix,
      concurrency: options.concurrency.uriCache,
    }),
  ];
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
  const counted = Object.values(QUEUE_NAMES).map((name) =>
    reportErrors(onError, new Queue(name, { connection, prefix })),
  );
  reportQueues(async () =>
    Object.fromEntries(
      await Promise.all(
        counted.map(
          async (q) => [q.name, await q.getJobCounts('waiting', 'delayed', 'active', 'failed')] as const,
        ),
      ),
    ),
  );
  const stopLagLog = logChangeLag(backlog, logger, options.changeLagLogMs, options.changeLagWarnMs);
  const stopScheduleWatch = options.schedules
    ? watchSchedules(aggregates, connection, logger, options.scheduleCheckMs)
    : () => {};

  return {
    notifier,
    requestMetadataCrawl: ctx.requestMetadataCrawl,
    changeLag: () => readChangeLag(backlog),
    async close() {
      stopLagLog();
      stopScheduleWatch();
      // Let in-flight jobs finish; past the grace period force-close, which leaves them to be
      // picked up again as stalled jobs by the next worker (every job is safe to run twice).
      await Promise.all(workers.map((w) => closeWithGrace(w, options.shutdownGraceMs)));
      reportQueues(null);
      await notifier.close();
      await Promise.all([aggregates.close(), uris.close(), ...counted.map((q) => q.close())]);
      await Promise.all([connection, ...workerConnections].map(quit));
    },
  };
}

const AGGREGATES_QUEUE_NAME = QUEUE_NAMES.aggregates;

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
  queue: Queue<AggregatePayload>,
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
    ensureSchedules(queue, logger, reason)
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
  queue: Queue<AggregatePayload>,
  logger: WorkerLogger,
  reason: string,
): Promise<string[]> {
  const present = new Set((await queue.getJobSchedulers()).map((s) => s.key));
  const missing = SCHEDULES.filter((s) => !present.has(s.id));
  if (missing.length === 0) return [];
  await upsertSchedules(queue, missing);
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
