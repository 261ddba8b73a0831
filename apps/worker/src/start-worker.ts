import type { ChangeNotifier } from '@mdq/jobs';
import { startBullmqWorker } from './bullmq-runner';
import type { ChangeLag } from './change-lag';
import { startInProcessWorker } from './in-process-runner';
import { startWebhookDelivery } from './webhooks/webhook-delivery';
import { resolveWorkerOptions, type StartWorkerOptions } from './worker-options';

export interface WorkerHandle {
  /** What the indexer calls after each committed batch. */
  notifier: ChangeNotifier;
  mode: 'bullmq' | 'in-process';
  /** Queues one collection's metadata crawl (the API's refresh-metadata in `mdq start`). */
  requestMetadataCrawl(collectionId: string): Promise<void>;
  /** Collections waiting for a collection-changed recompute and the age of the oldest change. */
  changeLag(): Promise<ChangeLag>;
  /** Stops taking jobs, lets in-flight ones finish (bounded by shutdownGraceMs), closes connections. */
  close(): Promise<void>;
}

/**
 * Starts the worker: with a Redis URL, BullMQ workers for collection-changed, aggregates and
 * uri-cache plus the job schedulers; without one, the same processors in this process on the same
 * schedules, and a notifier that calls them directly.
 */
export async function startWorker(options: StartWorkerOptions): Promise<WorkerHandle> {
  const resolved = resolveWorkerOptions(options);
  const base = {
    db: options.db,
    logger: resolved.logger,
    uri: resolved.uri,
    metadata: resolved.metadata,
    uriSweepBatch: resolved.uriSweepBatch,
    retention: resolved.retention,
    media: options.media,
  };
  if (options.redisUrl) {
    const running = await startBullmqWorker(base, options.redisUrl, resolved);
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
  const running = startInProcessWorker(base, resolved);
  return {
    notifier: running.notifier,
    requestMetadataCrawl: running.requestMetadataCrawl,
    changeLag: running.changeLag,
    close: running.close,
    mode: 'in-process',
  };
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
