import { type Env, readInt } from './read-env';

/** The live feed's settings: streams in the API, webhook deliveries in the worker (issue #16). */
export interface FeedConfig {
  /** How often the indexer checkpoint is read to find new events (API streams and webhook dispatch). */
  pollMs: number;
  /** Open SSE / WebSocket streams per API key and API process; one more is a 429. */
  maxConnectionsPerKey: number;
  /** Live events buffered per stream before a slow consumer falls back to reading the database. */
  maxQueue: number;
  /** SSE comment line sent this often so proxies keep an idle stream open. */
  heartbeatMs: number;
  /** Consecutive failed deliveries after which a webhook endpoint is paused (its backlog is kept). */
  webhookPauseAfter: number;
  /** How long one webhook POST may take before it counts as failed. */
  webhookTimeoutMs: number;
}

export const FEED_DEFAULTS: FeedConfig = {
  pollMs: 250,
  maxConnectionsPerKey: 20,
  maxQueue: 2000,
  heartbeatMs: 15_000,
  webhookPauseAfter: 10,
  webhookTimeoutMs: 10_000,
};

export function loadFeedConfig(env: Env): FeedConfig {
  const d = FEED_DEFAULTS;
  return {
    pollMs: readInt(env, 'MDQ_FEED_POLL_MS', d.pollMs, 10, 60_000),
    maxConnectionsPerKey: readInt(env, 'MDQ_FEED_MAX_STREAMS_PER_KEY', d.maxConnectionsPerKey, 1, 100_000),
    maxQueue: readInt(env, 'MDQ_FEED_MAX_QUEUE', d.maxQueue, 1, 1_000_000),
    heartbeatMs: readInt(env, 'MDQ_FEED_HEARTBEAT_MS', d.heartbeatMs, 1_000, 300_000),
    webhookPauseAfter: readInt(env, 'MDQ_WEBHOOK_PAUSE_AFTER', d.webhookPauseAfter, 1, 1_000_000),
    webhookTimeoutMs: readInt(env, 'MDQ_WEBHOOK_TIMEOUT_MS', d.webhookTimeoutMs, 100, 120_000),
  };
}
