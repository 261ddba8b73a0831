import { FEED_DEFAULTS } from '@mdq/config';
import type { Db } from '@mdq/db';
import { activeWebhookEndpointIds, feedEventId, feedHead } from '@mdq/db/feed';
import { createRedis, reportErrors } from '@mdq/jobs';
import { Queue, Worker } from 'bullmq';
import { defaultWorkerLogger, queueErrorSink, type WorkerLogger } from '../logger';
import { allowList } from '../uri/address-policy';
import { deliverWebhookBacklog } from './deliver-webhooks';

export const WEBHOOK_QUEUE = 'webhook-deliveries';

export interface WebhookPayload {
  endpointId: string;
}

export interface StartWebhookDeliveryOptions {
  db: Db;
  redisUrl: string;
  prefix: string;
  logger?: WorkerLogger;
  /** Consecutive failures before an endpoint is paused (default: the configuration's). */
  pauseAfter?: number;
  timeoutMs?: number;
  /** How often the indexer checkpoint is read to find new events (default: the configuration's). */
  pollMs?: number;
  /** Private addresses or subnets targets may still reach (e.g. `127.0.0.1` in tests). */
  allowPrivateAddresses?: readonly string[];
  concurrency?: number;
}

/** Retry n waits 0.5 s · 2^(n-1), capped at 30 s: a receiver that is down is retried for ever until paused. */
export const webhookBackoffMs = (attemptsMade: number) =>
  Math.min(30_000, 500 * 2 ** Math.max(0, attemptsMade - 1));

/** BullMQ refuses all-digit ids (and ':'); one job per endpoint and feed head dedupes dispatchers. */
const webhookJobId = (endpointId: string, head: string) => `webhook-${endpointId}-${head.replace(':', '-')}`;

/**
 * Webhook deliveries as BullMQ jobs: a dispatcher reads the feed's head (the indexer checkpoint,
 * and the worker's ranking changes at it) and, when it moves (and every `sweepMs` anyway), queues
 * a delivery run for each active endpoint; the run delivers the endpoint's backlog in order
 * (deliverWebhookBacklog), and a failed run is retried with backoff.
 */
export async function startWebhookDelivery(options: StartWebhookDeliveryOptions) {
  const { db, prefix } = options;
  const logger = options.logger ?? defaultWorkerLogger();
  const onError = queueErrorSink(logger);
  const connection = createRedis(options.redisUrl, onError);
  const workerConnection = createRedis(options.redisUrl, onError);
  const queue = reportErrors(onError, new Queue<WebhookPayload>(WEBHOOK_QUEUE, { connection, prefix }));
  const delivery = {
    pauseAfter: options.pauseAfter ?? FEED_DEFAULTS.webhookPauseAfter,
    timeoutMs: options.timeoutMs ?? FEED_DEFAULTS.webhookTimeoutMs,
    allowed: allowList(options.allowPrivateAddresses ?? []),
  };
  const worker = new Worker<WebhookPayload>(
    WEBHOOK_QUEUE,
    async (job) => deliverWebhookBacklog(db, job.data.endpointId, delivery),
    {
      connection: workerConnection,
      prefix,
      concurrency: options.concurrency ?? 4,
      settings: { backoffStrategy: webhookBackoffMs },
    },
  );
  reportErrors(onError, worker);

  const dispatched = new Map<string, string>();
  const sweepMs = 30_000;
  let lastSweep = Date.now();
  const tick = async () => {
    const position = await feedHead(db);
    if (position === null) return;
    const head = feedEventId(position);
    if (Date.now() - lastSweep > sweepMs) {
      dispatched.clear();
      lastSweep = Date.now();
    }
    const active = new Set(await activeWebhookEndpointIds(db));
    for (const id of dispatched.keys()) if (!active.has(id)) dispatched.delete(id);
    for (const id of active) {
      if (dispatched.get(id) === head) continue;
      await queue.add(
        'deliver',
        { endpointId: id },
        {
          jobId: webhookJobId(id, head),
          attempts: 1_000,
          backoff: { type: 'custom' },
          removeOnComplete: true,
          removeOnFail: true,
        },
      );
      dispatched.set(id, head);
    }
  };
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tick()
      .catch((error: unknown) => logger.warn({ err: error }, 'webhook dispatch failed'))
      .finally(() => {
        running = false;
      });
  }, options.pollMs ?? FEED_DEFAULTS.pollMs);
  timer.unref();

  return {
    queue,
    async close() {
      clearInterval(timer);
      await worker.close();
      await queue.close();
      connection.disconnect();
      workerConnection.disconnect();
    },
  };
}
