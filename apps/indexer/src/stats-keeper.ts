import type { Db } from '@mdq/db';
import { refreshPlannerStats } from '@mdq/db/ingest';
import { describeError, type Logger } from '@mdq/log';

export interface StatsKeeper {
  /** After a commit: looks for lagging statistics at most once per interval, in the background. */
  kick(): void;
  /** Waits for the refresh in flight, if any (the pool may be closed after). */
  close(): Promise<void>;
}

/**
 * Keeps the planner statistics of the written tables current while the indexer fills them
 * (packages/db planner-stats.ts says why). Runs beside the batch writes on another pooled
 * connection, never inside a batch's transaction: a failure is logged and ingestion goes on.
 */
export function startStatsKeeper(db: Db, log?: Logger, intervalMs = 5_000): StatsKeeper {
  let running: Promise<void> | null = null;
  let last = 0;
  return {
    kick() {
      const now = Date.now();
      if (running || now - last < intervalMs) return;
      last = now;
      running = refreshPlannerStats(db)
        .then((tables) => {
          if (tables.length > 0) log?.debug({ tables }, 'planner statistics refreshed');
        })
        .catch((error: unknown) => {
          log?.warn({ err: describeError(error) }, 'could not refresh planner statistics');
        })
        .finally(() => {
          running = null;
        });
    },
    async close() {
      await running;
    },
  };
}
