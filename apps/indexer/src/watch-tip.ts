import { type Db, recordChainTip } from '@mdq/db';
import type { ChainSource } from './source';

export interface TipWatcher {
  stop(): Promise<void>;
}

/**
 * Reads the source's tip every few seconds and records it, so that the API can say how far behind
 * the chain its answers are (`/ready`, freshness headers, `/metrics`). Separate from the follow loop
 * on purpose: at the tip the follower asks for the next page directly and never re-reads the tip.
 * Failures are skipped quietly: the follower reports source and database trouble itself, and a
 * missed reading only makes the tip look older, which is the truth.
 */
export function watchChainTip(db: Db, source: ChainSource, intervalMs = 5_000): TipWatcher {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = source
      .tip()
      .then((tip) => recordChainTip(db, tip.ledgerVersion))
      .catch(() => undefined)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
