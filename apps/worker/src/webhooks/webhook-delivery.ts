import { activeWebhookEndpointIds, type Db, latestIndexedVersion } from '@mdq/db';
import { createRedis } from '@mdq/jobs';
import { Queue, Worker } from 'bullmq';
import { errorFields, type WorkerLogger } from '../logger';
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
  /** Consecutive failures before an endpoint is paused (default 10). */
  pauseAfter?: number;
  timeoutMs?: number;
  /** How often the indexer checkpoint is read to find new events (default 250 ms). */
  pollMs?: number;
  /** Private addresses or subnets targets may still reach (e.g. `127.0.0.1` in tests). */
  allowPrivateAddresses?: readonly string[];
  concurrency?: number;
}

/** Retry n waits 0.5 s · 2^(n-1), capped at 30 s: a receiver that is down is retried for ever until paused. */
export const webhookBackoffMs = (attemptsMade: number) =>
  Math.min(30_000, 500 * 2 ** Math.max(0, attemptsMade - 1));

/** BullMQ refuses all-digit ids; one job per endpoint and checkpoint dedupes dispatchers. */
export const webhookJobId = (endpointId: string, version: number) => `webhook-${endpointId}-${version}`;

/**
 * Webhook deliveries as BullMQ jobs: a dispatcher reads the indexer checkpoint and, when it moves
 * (and every `sweepMs` anyway), queues a delivery run for each active endpoint; the run delivers
 * the endpoint's backlog in order (deliverWebhookBacklog), and a failed run is retried with backoff.
 */
export async function startWebhookDelivery(options: StartWebhookDeliveryOptions) {
  const { db, prefix } = options;
  const connection = createRedis(options.redisUrl);
  const workerConnection = createRedis(options.redisUrl);
  for (const c of [connection, workerConnection]) c.on('error', () => {});
  const queue = new Queue<WebhookPayload>(WEBHOOK_QUEUE, { connection, prefix });
  const delivery = {
    pauseAfter: options.pauseAfter ?? 10,
    timeoutMs: options.timeoutMs ?? 10_000,
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
  worker.on('error', (error) => options.logger?.warn('webhook worker error', errorFields(error)));

  const dispatched = new Map<string, number>();
  const sweepMs = 30_000;
  let lastSweep = Date.now();
  const tick = async () => {
    const version = await latestIndexedVersion(db);
    if (version === null) return;
    if (Date.now() - lastSweep > sweepMs) {
      dispatched.clear();
      lastSweep = Date.now();
    }
    const active = new Set(await activeWebhookEndpointIds(db));
    for (const id of dispatched.keys()) if (!active.has(id)) dispatched.delete(id);
    for (const id of active) {
      if (dispatched.get(id) === version) continue;
      await queue.add(
        'deliver',
        { endpointId: id },
        {
          jobId: webhookJobId(id, version),
          attempts: 1_000,
          backoff: { type: 'custom' },
          removeOnComplete: true,
          removeOnFail: true,
        },
      );
      dispatched.set(id, version);
    }
  };
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tick()
      .catch((error: unknown) => options.logger?.warn('webhook dispatch failed', errorFields(error)))
      .finally(() => {
        running = false;
      });
  }, options.pollMs ?? 250);
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
