import { type Db, feedIndexedVersion } from '@mdq/db';
import {
  comparePositions,
  FEED_START,
  type FeedEvent,
  type FeedPosition,
  feedEventsAfter,
  feedHead,
  indexedEnd,
} from '@mdq/db/feed';

/** A consumer of live events; called synchronously, in chain order, with each new page. */
export interface FeedListener {
  deliver(events: readonly FeedEvent[]): void;
}

export interface FeedHubOptions {
  db: Db;
  /** How often the indexer checkpoint is read (the wake-up); the event tables stay the truth. */
  pollMs: number;
  pageSize?: number;
  onError?: (error: unknown) => void;
}

const later = (a: FeedPosition, b: FeedPosition) => (comparePositions(a, b) >= 0 ? a : b);

/**
 * One poller per process. It reads the indexer checkpoint V (written in the same transaction as
 * the rows, so everything the indexer wrote at or below it is committed), reads the new events
 * once, and hands them to every live listener. `head` is the position up to which events have been
 * handed out: a consumer that reads history up to `head` and then listens misses nothing and sees
 * nothing twice. Having read everything up to V, the head stands at `indexedEnd(V)`, not at the
 * end of V: the worker's `ranking_changed` rows of V may still commit, each after the last one
 * read, so every poll looks past the head even when the checkpoint has not moved.
 */
export class FeedHub {
  private readonly listeners = new Set<FeedListener>();
  private position: FeedPosition | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly pageSize: number;

  constructor(private readonly options: FeedHubOptions) {
    this.pageSize = options.pageSize ?? 1000;
  }

  /** Where live delivery stands; null until the first checkpoint read. */
  get head(): FeedPosition | null {
    return this.position;
  }

  /** Starts polling on first use: a process nobody streams from reads nothing. */
  async ready(): Promise<FeedPosition> {
    if (!this.position) {
      const head = await feedHead(this.options.db);
      this.position ??= head ?? FEED_START;
    }
    if (!this.timer && !this.stopped) this.schedule();
    return this.position;
  }

  subscribe(listener: FeedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Reads up to the current checkpoint now (tests and the poller). */
  poll(): Promise<void> {
    this.running ??= this.advance().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.poll()
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => {
          if (!this.stopped) this.schedule();
        });
    }, this.options.pollMs);
    this.timer.unref();
  }

  private async advance(): Promise<void> {
    const start = this.position;
    if (!start) return;
    const version = await feedIndexedVersion(this.options.db);
    if (version === null) return;
    let at = start;
    for (;;) {
      const page = await feedEventsAfter(this.options.db, at, version, this.pageSize);
      const last = page.at(-1);
      const next = page.length < this.pageSize || !last ? later(last ?? at, indexedEnd(version)) : last;
      if (comparePositions(next, at) <= 0) break;
      // Position first, then hand out: a listener reacting synchronously sees a consistent head.
      this.position = next;
      at = next;
      if (page.length > 0) for (const listener of [...this.listeners]) listener.deliver(page);
      if (page.length < this.pageSize) break;
    }
  }
}
