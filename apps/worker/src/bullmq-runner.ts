import {
  bullmqNotifier,
  type ChangeNotifier,
  type CollectionChangedPayload,
  createRedis,
  QUEUE_NAMES,
} from '@mdq/jobs';
import { type Job, type Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { WorkerContext } from './context';
import { errorFields } from './logger';
import {
  AGGREGATE_JOB_OPTIONS,
  type AggregatePayload,
  aggregatesQueue,
  enqueueRankingsRefresh,
  processAggregate,
} from './queues/aggregates';
import { processCollectionChanged } from './queues/collection-changed';
import { enqueueUriResolve, processUriCache, type UriCachePayload, uriCacheQueue } from './queues/uri-cache';
import { SCHEDULES } from './schedules';
import type { ResolvedWorkerOptions } from './worker-options';

export interface RunningWorker {
  notifier: ChangeNotifier;
  close(): Promise<void>;
}

/** Upserts every job scheduler; the same ids on every start, so restarts update in place. */
export async function upsertSchedules(queue: Queue<AggregatePayload>): Promise<void> {
  for (const s of SCHEDULES) {
    await queue.upsertJobScheduler(
      s.id,
      { pattern: s.pattern, tz: 'UTC' },
      { name: s.payload.task, data: s.payload, opts: AGGREGATE_JOB_OPTIONS },
    );
  }
}

export async function startBullmqWorker(
  base: Omit<WorkerContext, 'requestRankingsRefresh' | 'requestUriResolve'>,
  redisUrl: string,
  options: ResolvedWorkerOptions,
): Promise<RunningWorker> {
  const { prefix } = options;
  const { logger } = base;
  // Queues and the notifier share one connection; each Worker gets its own, closed by us on close()
  // (BullMQ leaves connections it was handed open).
  const connection = createRedis(redisUrl);
  const workerConnections = [createRedis(redisUrl), createRedis(redisUrl), createRedis(redisUrl)] as const;
  const aggregates = aggregatesQueue(connection, prefix);
  const uris = uriCacheQueue(connection, prefix);
  const ctx: WorkerContext = {
    ...base,
    requestRankingsRefresh: () => enqueueRankingsRefresh(aggregates, options.rankingsRefreshBucketMs),
    requestUriResolve: (id) => enqueueUriResolve(uris, id),
  };
  if (options.schedules) await upsertSchedules(aggregates);

  const workers: Worker[] = [
    new Worker<CollectionChangedPayload>(
      QUEUE_NAMES.collectionChanged,
      (job) => processCollectionChanged(ctx, job.data, new Date()),
      { connection: workerConnections[0], prefix, concurrency: options.concurrency.collectionChanged },
    ),
    new Worker<AggregatePayload>(
      AGGREGATES_QUEUE_NAME,
      (job) => processAggregate(ctx, job.data, new Date()),
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
    worker.on('failed', (job: Job | undefined, err: Error) =>
      logger.error('job failed', {
        queue: worker.name,
        jobId: job?.id,
        attempts: job?.attemptsMade,
        ...errorFields(err),
      }),
    );
    worker.on('error', (err) => logger.error('worker error', { queue: worker.name, ...errorFields(err) }));
  }
  const notifier = bullmqNotifier(connection, { prefix, debounceMs: options.collectionChangedDelayMs });

  return {
    notifier,
    async close() {
      // Let in-flight jobs finish; past the grace period force-close, which leaves them to be
      // picked up again as stalled jobs by the next worker (every job is safe to run twice).
      await Promise.all(workers.map((w) => closeWithGrace(w, options.shutdownGraceMs)));
      await notifier.close();
      await Promise.all([aggregates.close(), uris.close()]);
      await Promise.all([connection, ...workerConnections].map(quit));
    },
  };
}

const AGGREGATES_QUEUE_NAME = QUEUE_NAMES.aggregates;

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
