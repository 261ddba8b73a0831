import type { Db } from '@mdq/db';
import {
  comparePositions,
  type FeedEvent,
  type FeedFilter,
  type FeedPosition,
  feedEventsAfter,
  matchesFilter,
} from '@mdq/db/feed';
import type { FeedHub, FeedListener } from './feed-hub';

/** Writes one event to the client; resolves when the transport can take more (back-pressure). */
export type FeedSend = (event: FeedEvent) => Promise<void> | void;

export interface FeedSessionOptions {
  hub: FeedHub;
  db: Db;
  filter: FeedFilter;
  /** The consumer has everything up to here; null = start at the live head. */
  after: FeedPosition | null;
  send: FeedSend;
  /** Live events a session buffers before it falls back to reading the database at its own pace. */
  maxQueue: number;
  pageSize?: number;
}

/**
 * One consumer's stream: history from the database up to the hub's head, then live events from
 * the hub. A consumer that cannot keep up overflows its bounded queue, leaves the hub and reads
 * the database again from its last sent event: it costs only its own reads, never the others' time,
 * and loses nothing.
 */
export class FeedSession implements FeedListener {
  private cursor: FeedPosition | null;
  private queue: FeedEvent[] = [];
  private unsubscribe: (() => void) | null = null;
  private wake: (() => void) | null = null;
  private closed = false;
  /** Times this session overflowed and went back to the database (observability, tests). */
  overflows = 0;
  /** The most live events this session ever held queued: never above maxQueue. */
  queueHighWater = 0;

  constructor(private readonly options: FeedSessionOptions) {
    this.cursor = options.after;
  }

  deliver(events: readonly FeedEvent[]): void {
    const fresh = events.filter(
      (e) => (!this.cursor || comparePositions(e, this.cursor) > 0) && matchesFilter(e, this.options.filter),
    );
    if (fresh.length === 0) return;
    if (this.queue.length + fresh.length > this.options.maxQueue) {
      this.overflows++;
      this.leaveHub();
      this.queue = [];
    } else {
      this.queue.push(...fresh);
      this.queueHighWater = Math.max(this.queueHighWater, this.queue.length);
    }
    this.notify();
  }

  close(): void {
    this.closed = true;
    this.leaveHub();
    this.notify();
    for (const settle of [...this.waiting]) settle();
  }

  /** What `until` waits on, each removed as it settles. */
  private readonly waiting = new Set<() => void>();

  /** Waits through `until` not settled yet: at most the one the transport is in. */
  get pendingWaits(): number {
    return this.waiting.size;
  }

  /**
   * Settles when `wait` does or the session closes, whichever comes first: a transport waiting
   * for a stuck client to drain waits through this, so that a shutdown or a hang-up never waits on
   * a consumer that stopped reading. Nothing of a settled wait stays on the session: racing every
   * wait against one promise that settles only at close kept a reaction per wait on it, and a
   * long-lived stream that waits for drains many times a second grew the heap without bound
   * (the 60-minute soak, 100 streams: about 75 waits a second, 70 MB an hour).
   */
  until(wait: Promise<unknown>): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const settle = () => {
        this.waiting.delete(settle);
        resolve();
      };
      this.waiting.add(settle);
      wait.then(settle, settle);
    });
  }

  /** Runs until close(); rejects when the database or the transport fails. */
  async run(): Promise<void> {
    const { hub } = this.options;
    const head = await hub.ready();
    this.cursor ??= head;
    try {
      while (!this.closed) {
        if (this.unsubscribe) await this.drainLive();
        else await this.catchUp();
      }
    } finally {
      this.leaveHub();
    }
  }

  private async catchUp(): Promise<void> {
    const { hub, db, filter } = this.options;
    const head = hub.head;
    const cursor = this.cursor;
    if (!head || !cursor) return;
    if (comparePositions(cursor, head) >= 0) {
      // Same tick as the head check: nothing the hub hands out after this can be missed.
      this.queue = [];
      this.unsubscribe = hub.subscribe(this);
      return;
    }
    const limit = this.options.pageSize ?? 500;
    const page = await feedEventsAfter(db, cursor, head.version, limit);
    let complete = page.length < limit;
    for (const event of page) {
      if (this.closed) return;
      // The hub may stand mid-version (it pages too); what lies past its head comes live.
      if (comparePositions(event, head) > 0) {
        complete = true;
        break;
      }
      if (matchesFilter(event, filter)) await this.options.send(event);
      this.cursor = event;
    }
    // Everything up to the head has been read: jump there (the next round subscribes).
    if (complete && this.cursor && comparePositions(head, this.cursor) > 0) this.cursor = head;
  }

  private async drainLive(): Promise<void> {
    if (this.queue.length === 0) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      return;
    }
    const batch = this.queue;
    this.queue = [];
    for (const event of batch) {
      if (this.closed) return;
      if (this.cursor && comparePositions(event, this.cursor) <= 0) continue;
      await this.options.send(event);
      this.cursor = event;
    }
  }

  private leaveHub(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
