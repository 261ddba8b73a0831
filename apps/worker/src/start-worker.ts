import { startBullmqWorker } from './bullmq-runner';
import { startInProcessWorker } from './in-process-runner';
import type { WorkerBase } from './jobs/define-job';
import { JOBS } from './jobs/registry';
import type { RunningWorker } from './running-worker';
import { RarityPacer } from './tasks/rarity-pacer';
import { startWebhookDelivery } from './webhooks/webhook-delivery';
import { resolveWorkerOptions, type StartWorkerOptions } from './worker-options';

export interface WorkerHandle extends RunningWorker {
  mode: 'bullmq' | 'in-process';
}

/**
 * Starts the worker on the job registry (`jobs/registry.ts`): with a Redis URL, a BullMQ Worker per
 * queue plus the job schedulers; without one, the same jobs in this process on the same schedules,
 * and a notifier that calls them directly.
 */
export async function startWorker(options: StartWorkerOptions): Promise<WorkerHandle> {
  const resolved = resolveWorkerOptions(options);
  const jobs = options.jobs ?? JOBS;
  const base: WorkerBase = {
    db: options.db,
    logger: resolved.logger,
    uri: resolved.uri,
    metadata: resolved.metadata,
    uriSweepBatch: resolved.uriSweepBatch,
    retention: resolved.retention,
    media: options.media,
    clock: resolved.clock,
    rarityPacer: options.rarityPacer ?? new RarityPacer(),
  };
  if (options.redisUrl) {
    const running = await startBullmqWorker(base, options.redisUrl, resolved, jobs);
    // Webhook deliveries are BullMQ jobs only: without Redis there are no webhooks.
    const webhooks = await startWebhookDelivery({
      db: options.db,
      redisUrl: options.redisUrl,
      prefix: resolved.prefix,
      logger: resolved.logger,
      ...options.webhooks,
    });
    return {
      ...running,
      close: async () => {
        await webhooks.close();
        await running.close();
      },
      mode: 'bullmq',
    };
  }
  return { ...startInProcessWorker(base, resolved, jobs), mode: 'in-process' };
}

/** Closes the worker on SIGTERM / SIGINT (for the CLI); returns a function that removes the handlers. */
export function closeOnSignals(
  handle: WorkerHandle,
  onClosed: () => void = () => process.exit(0),
): () => void {
  const stop = () => {
    void handle.close().finally(onClosed);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return () => {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  };
}
