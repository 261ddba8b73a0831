import { type ChangeNotifier, inProcessNotifier } from '@mdq/jobs';
import type { WorkerContext } from './context';
import { errorFields } from './logger';
import { type AggregatePayload, processAggregate } from './queues/aggregates';
import { processCollectionChanged } from './queues/collection-changed';
import { processUriCache } from './queues/uri-cache';
import { nextRun, SCHEDULES } from './schedules';
import type { ResolvedWorkerOptions } from './worker-options';

const RETRY_DELAYS_MS = [1_000, 5_000, 20_000];

/**
 * The worker without Redis: the same processors and schedules, run one at a time in this process.
 * Requests are deduplicated by key while they wait (like BullMQ job ids); failures are retried with
 * the same backoff steps and logged when they give up.
 */
export function startInProcessWorker(
  base: Omit<WorkerContext, 'requestRankingsRefresh' | 'requestUriResolve'>,
  options: ResolvedWorkerOptions,
): { notifier: ChangeNotifier; close(): Promise<void>; idle(): Promise<void> } {
  const pending = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let chain: Promise<void> = Promise.resolve();
  let closed = false;

  const later = (ms: number, fn: () => void) => {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const enqueue = (key: string, run: () => Promise<unknown>, delayMs = 0): void => {
    if (closed || pending.has(key)) return;
    pending.add(key);
    later(delayMs, () => {
      chain = chain.then(async () => {
        pending.delete(key);
        await withRetry(key, run);
      });
    });
  };

  const withRetry = async (key: string, run: () => Promise<unknown>): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      try {
        await run();
        return;
      } catch (err) {
        const delay = RETRY_DELAYS_MS[attempt];
        if (delay === undefined || closed) {
          base.logger.error('job failed', { job: key, attempts: attempt + 1, ...errorFields(err) });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  };

  const ctx: WorkerContext = {
    ...base,
    async requestRankingsRefresh() {
      enqueue(
        'rankings-refresh',
        () => processAggregate(ctx, { task: 'rankings-refresh' }, new Date()),
        options.rankingsRefreshBucketMs,
      );
    },
    async requestUriResolve(collectionId) {
      enqueue(`uri:${collectionId}`, () => processUriCache(ctx, { collectionId }));
    },
  };

  const runAggregate = (payload: AggregatePayload, key: string) =>
    enqueue(key, () => processAggregate(ctx, payload, new Date()));

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
    enqueue(
      `collection:${payload.collectionId}`,
      () => processCollectionChanged(ctx, payload, new Date()),
      options.collectionChangedDelayMs,
    );
  });

  return {
    notifier,
    /** Resolves when everything queued so far (not future timers) has run; for tests. */
    async idle() {
      await chain;
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      // The job in flight finishes; waiting ones are dropped (the schedules redo them on restart).
      await chain;
    },
  };
}
