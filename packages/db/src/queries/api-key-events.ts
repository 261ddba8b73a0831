import pg from 'pg';
import { API_KEY_REVOKED_CHANNEL } from './api-keys';

export interface KeyRevocationListener {
  /** True while LISTEN is in place; while false a revocation may go unnoticed, so callers shorten their cache. */
  readonly listening: boolean;
  close(): Promise<void>;
}

export interface KeyRevocationHandlers {
  /** A key was revoked (its key id). */
  revoked(keyId: string): void;
  /** The listener (re)connected: notifications may have been missed meanwhile, forget everything. */
  reset(): void;
}

/**
 * Listens for API key revocations on a dedicated connection (LISTEN needs one session) and
 * reconnects with capped backoff after a restart or failover, calling reset() each time it is back.
 */
export function listenForKeyRevocations(url: string, handlers: KeyRevocationHandlers): KeyRevocationListener {
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let delay = 250;
  let timer: NodeJS.Timeout | null = null;

  const schedule = () => {
    listening = false;
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, 5_000);
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString: url, application_name: 'mdq-api-keys' });
    // Without a listener a server restart is an unhandled 'error' event that ends the process.
    next.on('error', () => schedule());
    next.on('end', () => schedule());
    next.on('notification', (message) => {
      if (message.channel === API_KEY_REVOKED_CHANNEL && message.payload) handlers.revoked(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${API_KEY_REVOKED_CHANNEL}`);
      if (closed) {
        await next.end();
        return;
      }
      client = next;
      listening = true;
      delay = 250;
      handlers.reset();
    } catch {
      next.end().catch(() => undefined);
      schedule();
    }
  };
  void connect();

  return {
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      listening = false;
      if (timer) clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  };
}
