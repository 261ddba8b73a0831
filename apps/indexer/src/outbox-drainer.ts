import { ackCollectionChanges, type Db, pendingCollectionChanges } from '@mdq/db';
import type { ChangeNotifier } from '@mdq/jobs';
import type { Logger } from '@mdq/log';
import { describeError, type FailureLog, failureKey } from '@mdq/log';

export interface OutboxDrainer {
  /** Something was committed: enqueue it soon. Never waits. */
  kick(): void;
  /**
   * Stops; waits a little for an enqueue in flight. One that outlasts the wait is abandoned: it
   * touches the database no more (the caller closes it next), and what it did not acknowledge stays
   * in the outbox and is enqueued again after a restart (jobs are de-duplicated per collection).
   */
  close(): Promise<void>;
}

const PAGE = 500;

/**
 * Moves committed collection changes from the outbox to the job queue, in the background: the
 * follow loop only kicks it, so ingestion goes on while Redis is down; the changes wait in
 * Postgres and are enqueued (with retries, capped backoff) once Redis answers again.
 */
export function startOutboxDrainer(options: {
  db: Db;
  notifier: ChangeNotifier;
  log?: Logger | undefined;
  failures: FailureLog;
}): OutboxDrainer {
  let wanted = false;
  let running: Promise<void> | null = null;
  let closed = false;
  let abandoned = false;
  let delay = 250;
  let timer: NodeJS.Timeout | null = null;

  const drain = async () => {
    while (wanted && !closed) {
      wanted = false;
      for (;;) {
        const changes = await pendingCollectionChanges(options.db, PAGE);
        if (changes.length === 0) break;
        const version = Math.max(...changes.map((c) => c.version));
        await options.notifier.collectionsChanged(
          changes.map((c) => c.collectionId),
          version,
        );
        // Past close's wait the database may be closed already ("driver has already been destroyed").
        if (abandoned) return;
        await ackCollectionChanges(options.db, changes);
        if (changes.length < PAGE || closed) break;
      }
    }
  };

  const kick = () => {
    wanted = true;
    if (running || closed || timer) return;
    running = drain()
      .then(() => {
        delay = 250;
      })
      .catch((error: unknown) => {
        // Closing: the queue and the database go away under the drain; the rows stay for next time.
        if (closed) return;
        const reason = describeError(error);
        options.failures.report(failureKey(`outbox ${reason}`), ({ count }) =>
          options.log?.warn(
            { err: reason, count, retryInMs: delay },
            'could not enqueue collection-changed jobs; they wait in the outbox',
          ),
        );
        wanted = true;
        timer = setTimeout(() => {
          timer = null;
          kick();
        }, delay);
        timer.unref();
        delay = Math.min(delay * 2, 30_000);
      })
      .finally(() => {
        running = null;
        // A kick that arrived as the drain was finishing.
        if (wanted && !timer && !closed) kick();
      });
  };

  return {
    kick,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const inFlight = running;
      if (!inFlight) return;
      const finished = await Promise.race([
        inFlight.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 2_000).unref()),
      ]);
      if (!finished) abandoned = true;
    },
  };
}
