/**
 * How many requests the API works on at once, adapted to how fast it answers (additive increase,
 * multiplicative decrease, the scheme of Netflix's concurrency-limits and TCP's congestion window).
 *
 * Past what the machine can run, more requests in flight do not answer more per second: they wait
 * for the CPU, inside the process or in Postgres, and every one of them answers later. A queue that
 * stands shows in the fastest answer of a short window (CoDel's observation): when even the fastest
 * request of the last `windowMs` took longer than `targetMs`, every request waited, so the limit
 * shrinks by a tenth; while the fastest stays under the target and the limit is in use, it grows by
 * a twentieth (at least one). Bursts pass (one window's slow answers are noise to the minimum);
 * cached answers at a hundred connections keep the limit above a hundred.
 */
export class ConcurrencyLimit {
  private inFlight = 0;
  private limit: number;
  /** When the current window began; the first call starts the first one. */
  private windowStart: number | undefined;
  private windowMin = Number.POSITIVE_INFINITY;
  /** The most requests in flight during the window: the limit grows only when it was reached. */
  private windowPeak = 0;

  constructor(
    private readonly targetMs: number,
    private readonly options: { initial: number; min: number; max: number; windowMs: number } = {
      initial: 100,
      min: 4,
      max: 10_000,
      windowMs: 100,
    },
  ) {
    this.limit = options.initial;
  }

  /** Takes a place if one is free: false means refuse the request. */
  tryAcquire(now = performance.now()): boolean {
    this.adjust(now);
    if (this.inFlight >= this.limit) return false;
    this.inFlight += 1;
    this.windowPeak = Math.max(this.windowPeak, this.inFlight);
    return true;
  }

  /** Gives the place back with the request's time from admission to its answer. */
  release(elapsedMs: number, now = performance.now()): void {
    this.inFlight -= 1;
    this.windowMin = Math.min(this.windowMin, elapsedMs);
    this.adjust(now);
  }

  get current(): { limit: number; inFlight: number } {
    return { limit: this.limit, inFlight: this.inFlight };
  }

  private adjust(now: number): void {
    this.windowStart ??= now;
    if (now - this.windowStart < this.options.windowMs) return;
    const { min, max } = this.options;
    if (this.windowMin > this.targetMs && this.windowMin !== Number.POSITIVE_INFINITY) {
      this.limit = Math.max(min, Math.floor(this.limit * 0.9));
    } else if (this.windowMin <= this.targetMs && this.windowPeak >= this.limit) {
      this.limit = Math.min(max, this.limit + Math.max(1, Math.floor(this.limit / 20)));
    }
    this.windowStart = now;
    this.windowMin = Number.POSITIVE_INFINITY;
    this.windowPeak = this.inFlight;
  }
}
