import type { Config } from '@mdq/config';

/** The worker's webhook deliveries from the configuration's feed block. */
export function webhookSettings(config: Config): { pauseAfter: number; timeoutMs: number; pollMs: number } {
  return {
    pauseAfter: config.feed.webhookPauseAfter,
    timeoutMs: config.feed.webhookTimeoutMs,
    pollMs: config.feed.pollMs,
  };
}
