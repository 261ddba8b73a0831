import pg from 'pg';

export interface NotificationListener {
  /** True while LISTEN is in place; while false a notification may go unheard, so callers trust less. */
  readonly listening: boolean;
  /**
   * Notifies `channel` from the listening session itself, in a transaction of its own: once this
   * session hears it back, it has heard every transaction committed before it (Postgres delivers
   * notifications in commit order). False when there is no session, or the last one is unanswered.
   */
  notifySelf(channel: string, payload: string): boolean;
  close(): Promise<void>;
}

export interface NotificationHandlers {
  /** A notification on `channel`, with its payload ('' when none). */
  notified(channel: string, payload: string): void;
  /** The listener (re)connected: notifications may have been missed meanwhile. */
  reset(): void;
}

/**
 * LISTENs on `channels` on a dedicated connection (LISTEN needs one session) and reconnects with
 * capped backoff after a restart or failover, calling reset() each time it is back. Notifications
 * are the primary's: a standby never delivers them, so `url` names the primary.
 */
export function listenForNotifications(
  url: string,
  applicationName: string,
  channels: readonly string[],
  handlers: NotificationHandlers,
): NotificationListener {
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let delay = 250;
  let timer: NodeJS.Timeout | null = null;
  let notifying = false;

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
    const next = new pg.Client({ connectionString: url, application_name: applicationName });
    // Without a listener a server restart is an unhandled 'error' event that ends the process.
    next.on('error', () => schedule());
    next.on('end', () => schedule());
    next.on('notification', (message) => handlers.notified(message.channel, message.payload ?? ''));
    try {
      await next.connect();
      for (const channel of channels) await next.query(`LISTEN ${channel}`);
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
    notifySelf(channel, payload) {
      const session = client;
      if (!listening || !session || notifying) return false;
      notifying = true;
      session.query('SELECT pg_notify($1, $2)', [channel, payload]).then(
        () => {
          notifying = false;
        },
        // A broken session ends with 'error' / 'end', which reconnects.
        () => {
          notifying = false;
        },
      );
      return true;
    },
    async close() {
      closed = true;
      listening = false;
      if (timer) clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  };
}
