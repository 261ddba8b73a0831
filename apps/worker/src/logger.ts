import { type RedisErrorSink, redisErrorSink } from '@mdq/jobs';
import { type Logger, processLogger } from '@mdq/log';

/** The worker logs through the one mdq logger (`@mdq/log`): pino, fields first, then the message. */
export type WorkerLogger = Logger;

/**
 * The default: the process's logger as the `worker` component. Its warnings and errors are one line
 * per distinct failure per window with a count: a database outage fails every job the same way.
 */
export function defaultWorkerLogger(): WorkerLogger {
  return processLogger().child({ component: 'worker' });
}

/**
 * The 'error' events of the worker's Redis connections and BullMQ objects (Redis unreachable, a lock
 * lost to a restart): one warning with the message and no stack (BullMQ's internals say nothing an
 * operator can act on); the logger counts the repeats.
 */
export function queueErrorSink(logger: WorkerLogger): RedisErrorSink {
  return redisErrorSink((reason) => {
    // A job still running when Redis restarts empty (its key and lock gone), or one that outlived
    // its lock, cannot be moved to finished: BullMQ reports an error, but nothing is lost. Every job
    // is safe to run twice, and the schedules, the metadata sweep and the stalled-job check run its
    // work again.
    if (LOST_LOCK.test(reason)) {
      // The text without its class name: this line reports no failure.
      logger.info(
        { reason: reason.replace(/^\w*Error: /, '') },
        'a job lost its key or lock in Redis; its work runs again',
      );
      return;
    }
    logger.warn({ err: reason }, 'queue error');
  });
}

const LOST_LOCK = /Missing (lock|key) for job/;
