import type { BlockList } from 'node:net';
import { type Db, feedIndexedVersion, withAdvisoryLock } from '@mdq/db';
import {
  advanceWebhookCursor,
  comparePositions,
  feedEventsAfter,
  findWebhookEndpoint,
  matchesFilter,
  recordWebhookFailure,
  recordWebhookSuccess,
  webhookFeedFilter,
} from '@mdq/db/feed';
import { postWebhook } from './post-webhook';

export interface WebhookDeliveryOptions {
  /** Consecutive failed attempts after which the endpoint is paused (its backlog is kept). */
  pauseAfter: number;
  timeoutMs: number;
  /** Private addresses webhook targets may reach anyway (tests, on-premise receivers). */
  allowed?: BlockList;
  pageSize?: number;
}

/** A delivery failed and the endpoint is still active: BullMQ retries the job with backoff. */
class WebhookDeliveryError extends Error {
  override name = 'WebhookDeliveryError';
}

/**
 * Delivers an endpoint's backlog: every matching committed event after its cursor, one at a time
 * and in chain order, moving the cursor after each 2xx. One delivery run per endpoint at a time
 * (an advisory lock), so order holds across worker processes. A failure stops the run: it throws
 * for a retry, or returns once the endpoint is paused.
 */
export async function deliverWebhookBacklog(
  db: Db,
  endpointId: string,
  options: WebhookDeliveryOptions,
): Promise<{ delivered: number; paused: boolean }> {
  return withAdvisoryLock(db, `webhook:${endpointId}`, async () => {
    let delivered = 0;
    for (;;) {
      const endpoint = await findWebhookEndpoint(db, endpointId);
      if (endpoint?.status !== 'active') return { delivered, paused: endpoint?.status === 'paused' };
      const head = await feedIndexedVersion(db);
      if (head === null) return { delivered, paused: false };
      const limit = options.pageSize ?? 200;
      const page = await feedEventsAfter(db, endpoint.cursor, head, limit);
      const filter = webhookFeedFilter(endpoint.filter);
      let skipped = endpoint.cursor;
      for (const event of page) {
        if (!matchesFilter(event, filter)) {
          skipped = event;
          continue;
        }
        const result = await postWebhook(endpoint.url, endpoint.secret, event, options);
        if (result.ok) {
          await recordWebhookSuccess(db, endpointId, event, result.statusCode ?? 200);
          skipped = event;
          delivered++;
          continue;
        }
        if (comparePositions(skipped, endpoint.cursor) > 0)
          await advanceWebhookCursor(db, endpointId, skipped);
        const failure = { statusCode: result.statusCode, error: result.error ?? 'failed' };
        const { paused } = await recordWebhookFailure(db, endpointId, event.id, failure, options.pauseAfter);
        if (paused) return { delivered, paused: true };
        throw new WebhookDeliveryError(`${endpointId}: ${event.id} -> ${failure.error}`);
      }
      if (comparePositions(skipped, endpoint.cursor) > 0) await advanceWebhookCursor(db, endpointId, skipped);
      if (page.length < limit) return { delivered, paused: false };
    }
  });
}
