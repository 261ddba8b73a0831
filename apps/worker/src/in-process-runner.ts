import {
  type ChangeNotifier,
  inProcessNotifier,
  JOB_POLICIES,
  memoryChangeBacklog,
  QUEUE_NAMES,
  type QueueName,
  retryDelayMs,
} from '@mdq/jobs';
import { jobDuration, jobFailures, reportQueues } from '@mdq/telemetry';
import { type ChangeLag, logChangeLag, readChangeLag } from './change-lag';
import type { WorkerContext } from './context';
import { type AggregatePayload, processAggregate } from './queues/aggregates';
import { runCollectionChanged } from './queues/collection-changed';
import { processUriCache } from './queues/uri-cache';
import { nextRun, SCHEDULES } from './schedules';
import type { ResolvedWorkerOptions } from './worker-options';

interface Entry {
  queue: QueueName;
  state: 'delayed' | 'queued' | 'running';
  /** Asked for again while running: run this once more afterwards (BullMQ's keepLastIfActive). */
  next: (() => Promise<unknown>) | null;
}

export interface InProcessWorker {
  notifier: ChangeNotifier;
  requestMetadataCrawl(collectionId: string): Promise<void>;
  changeLag(): Promise<ChangeLag>;
  close(): Promise<void>;
  /** Resolves when everything queued so far (not future timers) has run; for tests. */
  idle(): Promise<void>;
}

/**
 * The worker without Redis: the same processors, job policies (attempts, backoff) and cron
 * schedules as the BullMQ runtime, run in this process one at a time per queue. A key has at most one run
 * waiting: a request for a waiting key joins it, a request for a running key is remembered and
 * runs once more after it, `delayMs` later — the same rules as the BullMQ producer's deduplication.
 */
export function startInProcessWorker(
  base: Omit<WorkerContext, 'requestRankingsRefresh' | 'requestUriResolve' | 'requestMetadataCrawl'>,
  options: ResolvedWorkerOptions,
): InProcessWorker {
  const entries = new Map<string, Entry>();
  const timers = new Set<NodeJS.Timeout>();
  const backlog = memoryChangeBacklog();
  // One lane per queue, as BullMQ runs one Worker per queue: a metadata crawl waiting on a slow host
  // (up to its 10 s deadline per document) must not hold a collection's recompute or the rankings.
  const lanes = new Map<QueueName, Promise<void>>();
  const allLanes = () => Promise.all(lanes.values()).then(() => undefined);
  let closed = false;

  const later = (ms: number, fn: () => void) => {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const enqueue = (key: string, queue: QueueName, run: () => Promise<unknown>, delayMs = 0): void => {
    if (closed) return;
    const policy = JOB_POLICIES[queue];
    const existing = entries.get(key);
    if (existing) {
      if (existing.state === 'running') existing.next = run;
      return;
    }
    const entry: Entry = { queue, state: 'delayed', next: null };
    entries.set(key, entry);
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
        entries.delete(key);
        if (entry.next) enqueue(key, queue, entry.next, delayMs);
      });
      lanes.set(queue, lane);
    };
    later(delayMs, () => attempt(0));
  };

  const ctx: WorkerContext = {
    ...base,
    async requestRankingsRefresh() {
      enqueue(
        'rankings-refresh',
        QUEUE_NAMES.aggregates,
        () => processAggregate(ctx, { task: 'rankings-refresh' }, options.clock()),
        options.rankingsRefreshBucketMs,
      );
    },
    async requestUriResolve(collectionId) {
      enqueue(`uri:${collectionId}`, QUEUE_NAMES.uriCache, () => processUriCache(ctx, { collectionId }));
    },
    async requestMetadataCrawl(collectionId) {
      enqueue(`metadata:${collectionId}`, QUEUE_NAMES.uriCache, () =>
        processUriCache(ctx, { collectionId, task: 'metadata' }),
      );
    },
  };

  const runAggregate = (payload: AggregatePayload, key: string) =>
    enqueue(key, QUEUE_NAMES.aggregates, () => processAggregate(ctx, payload, options.clock()));

  if (options.schedules) {
    for (const schedule of SCHEDULES) {
      const arm = () => {
        const now = Date.now();
        later(nextRun(schedule, now) - now, () => {
          runAggregate(schedule.payload, `schedule:${schedule.id}`);
          arm();
        });
      };
      arm();
    }
  }

  const notifier = inProcessNotifier(async (payload) => {
    await backlog.mark([payload.collectionId], payload.changedAt);
    enqueue(
      `collection:${payload.collectionId}`,
      QUEUE_NAMES.collectionChanged,
      () => runCollectionChanged(ctx, backlog, payload),
      options.collectionChangedDelayMs,
    );
  });
  const stopLagLog = logChangeLag(backlog, base.logger, options.changeLagLogMs, options.changeLagWarnMs);
  // Queue depth for /metrics, in BullMQ's state names.
  reportQueues(async () => {
    const counts: Record<string, Record<string, number>> = {};
    for (const name of Object.values(QUEUE_NAMES)) counts[name] = { delayed: 0, waiting: 0, active: 0 };
    for (const entry of entries.values()) {
      const state = entry.state === 'queued' ? 'waiting' : entry.state === 'running' ? 'active' : 'delayed';
      const perQueue = counts[entry.queue];
      if (perQueue) perQueue[state] = (perQueue[state] ?? 0) + 1;
    }
    return counts;
  });

  return {
    notifier,
    requestMetadataCrawl: ctx.requestMetadataCrawl,
    changeLag: () => readChangeLag(backlog),
    async idle() {
      await allLanes();
    },
    async close() {
      closed = true;
      stopLagLog();
      reportQueues(null);
      for (const t of timers) clearTimeout(t);
      timers.clear();
      // The job in flight finishes; waiting ones are dropped (the schedules redo them on restart).
      await allLanes();
    },
  };
}
