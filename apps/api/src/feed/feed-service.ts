import type { FeedConfig } from '@mdq/config';
import type { FeedEvent as FeedEventSchema } from '@mdq/contracts';
import type { Db } from '@mdq/db';
import type { FeedEvent, FeedFilter, FeedPosition } from '@mdq/db/feed';
import type { Static } from 'typebox';
import { ConnectionLimits } from './connection-limits';
import { FeedHub } from './feed-hub';
import { type FeedSend, FeedSession } from './feed-session';

/** The stream settings of the feed block of the configuration (@mdq/config, FeedConfig). */
export type FeedOptions = Pick<FeedConfig, 'pollMs' | 'maxConnectionsPerKey' | 'maxQueue' | 'heartbeatMs'>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's one live feed (hub, limits, open streams). */
    liveFeed: FeedService;
  }
}

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

  /** Per open stream: how often it was sent back to the database, and its largest live queue. */
  sessionStats(): { overflows: number; queueHighWater: number }[] {
    return [...this.sessions].map((s) => ({ overflows: s.overflows, queueHighWater: s.queueHighWater }));
  }

  /** Ends every stream (clients reconnect with their last id) and the poller. */
  async close(): Promise<void> {
    for (const session of this.sessions) session.close();
    await this.hub.stop();
  }
}

/**
 * The wire form of an event; `satisfies` holds @mdq/db's FeedEvent to the documented schema. A
 * polled event is one object handed to every open stream: it is written out once, not once per
 * stream (100 streams made every event 100 `JSON.stringify`s, and the API's heap swing with them).
 */
export function feedData(event: FeedEvent): string {
  let data = wireForms.get(event);
  if (data === undefined) {
    data = JSON.stringify(event satisfies Static<typeof FeedEventSchema>);
    wireForms.set(event, data);
  }
  return data;
}

const wireForms = new WeakMap<FeedEvent, string>();
