import type { ChangeBacklog } from '@mdq/jobs';
import type { WorkerLogger } from './logger';

/** How far collection-changed work is behind: what a /metrics endpoint or a health check reads. */
export interface ChangeLag {
  /** Collections with a change not yet picked up by a recompute. */
  pending: number;
  /** Age of the oldest such change, null when there is none. */
  oldestChangeAgeMs: number | null;
}

export async function readChangeLag(backlog: ChangeBacklog, now = Date.now()): Promise<ChangeLag> {
  const { pending, oldestChangeAt } = await backlog.summary();
  return { pending, oldestChangeAgeMs: oldestChangeAt === null ? null : Math.max(0, now - oldestChangeAt) };
}

/**
 * Logs the lag every `intervalMs` while anything waits: info normally, a warning when the oldest
 * change is older than `staleAfterMs` (work is piling up faster than the worker recomputes).
 * Returns the function that stops it.
 */
export function logChangeLag(
  backlog: ChangeBacklog,
  logger: WorkerLogger,
  intervalMs: number,
  staleAfterMs: number,
): () => void {
  const timer = setInterval(() => {
    readChangeLag(backlog).then(
      (lag) => {
        if (lag.oldestChangeAgeMs === null) return;
        // A backlog within bounds is normal operation: a debug line; past them, a warning.
        if (lag.oldestChangeAgeMs > staleAfterMs) logger.warn({ ...lag }, 'collection-changed backlog');
        else logger.debug({ ...lag }, 'collection-changed backlog');
      },
      (err: unknown) => logger.warn({ err }, 'collection-changed backlog unreadable'),
    );
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
