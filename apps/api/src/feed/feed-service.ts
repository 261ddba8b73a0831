import type { Db, FeedEvent, FeedFilter, FeedPosition } from '@mdq/db';
import { ConnectionLimits } from './connection-limits';
import { FeedHub } from './feed-hub';
import { type FeedSend, FeedSession } from './feed-session';

export interface FeedOptions {
  /** Checkpoint poll interval (ms). */
  pollMs: number;
  /** Open streams per API key and process. */
  maxConnectionsPerKey: number;
  /** Live events buffered per consumer before it falls back to reading the database. */
  maxQueue: number;
}

export const DEFAULT_FEED_OPTIONS: FeedOptions = { pollMs: 250, maxConnectionsPerKey: 20, maxQueue: 2000 };

/** What the SSE and WebSocket routes share: the process's one hub, the limits, open sessions. */
export class FeedService {
  readonly hub: FeedHub;
  readonly limits: ConnectionLimits;
  private readonly sessions = new Set<FeedSession>();

  constructor(
    private readonly db: Db,
    readonly options: FeedOptions,
    onError?: (error: unknown) => void,
  ) {
    this.hub = new FeedHub({ db, pollMs: options.pollMs, ...(onError ? { onError } : {}) });
    this.limits = new ConnectionLimits(options.maxConnectionsPerKey);
  }

  open(filter: FeedFilter, after: FeedPosition | null, send: FeedSend): FeedSession {
    const session = new FeedSession({
      hub: this.hub,
      db: this.db,
      filter,
      after,
      send,
      maxQueue: this.options.maxQueue,
    });
    this.sessions.add(session);
    return session;
  }

  forget(session: FeedSession): void {
    this.sessions.delete(session);
  }

  get openSessions(): number {
    return this.sessions.size;
  }

  /** Ends every stream (clients reconnect with their last id) and the poller. */
  async close(): Promise<void> {
    for (const session of this.sessions) session.close();
    await this.hub.stop();
  }
}

export const feedData = (event: FeedEvent): string => JSON.stringify(event);
