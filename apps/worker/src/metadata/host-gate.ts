interface HostState {
  active: number;
  /** Earliest start of the next request to this host (epoch ms). */
  nextStart: number;
  waiting: (() => void)[];
  timer: NodeJS.Timeout | null;
}

/**
 * Politeness per host: at most `concurrency` requests in flight to one host and at least
 * `intervalMs` between two request starts (a rate limit of 1000 / intervalMs per second). One gate
 * is shared by every crawl of a worker process, so two collections on one host share its budget,
 * while collections on other hosts never wait for it.
 */
export class HostGate {
  private readonly hosts = new Map<string, HostState>();

  constructor(
    private readonly concurrency: number,
    private readonly intervalMs: number,
  ) {}

  async run<T>(host: string, task: () => Promise<T>): Promise<T> {
    const state = this.stateOf(host);
    await new Promise<void>((resolve) => {
      state.waiting.push(resolve);
      this.pump(host, state);
    });
    try {
      return await task();
    } finally {
      state.active--;
      this.pump(host, state);
    }
  }

  private stateOf(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      state = { active: 0, nextStart: 0, waiting: [], timer: null };
      this.hosts.set(host, state);
    }
    return state;
  }

  private pump(host: string, state: HostState): void {
    while (state.waiting.length > 0 && state.active < this.concurrency) {
      const now = Date.now();
      if (now < state.nextStart) {
        state.timer ??= setTimeout(() => {
          state.timer = null;
          this.pump(host, state);
        }, state.nextStart - now);
        return;
      }
      state.active++;
      state.nextStart = now + this.intervalMs;
      state.waiting.shift()?.();
    }
    // Forget an idle host once its interval has passed, so the map holds only busy hosts.
    if (
      state.active === 0 &&
      state.waiting.length === 0 &&
      state.timer === null &&
      Date.now() >= state.nextStart
    ) {
      this.hosts.delete(host);
    }
  }
}
