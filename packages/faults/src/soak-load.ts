/**
 * The soak's read load: closed loops over a list of distinct URLs, each request timed. The soak
 * takes the answers of each sample interval (`take()`) and keeps the whole run's statuses.
 */

export interface IntervalAnswers {
  /** Requests answered in the interval (any status, time-outs included). */
  requests: number;
  ok: number;
  /** 503s: the API shedding load (docs/RELIABILITY.md, "Overload"), not an error. */
  shed: number;
  /** Anything else: another status, or no answer within the time-out. */
  errors: number;
  /** Milliseconds of the 2xx answers of the interval; null when there were none. */
  p50Ms: number | null;
  p99Ms: number | null;
}

export interface ReadLoad {
  /** The answers since the previous call. */
  take(): IntervalAnswers;
  /** Whole run: requests by status (0: no answer within 30 s). */
  statuses: Record<string, number>;
  stop(): Promise<void>;
}

const TIMEOUT_MS = 30_000;

export function startReadLoad(
  urls: readonly string[],
  headers: Record<string, string>,
  loops: number,
): ReadLoad {
  const statuses: Record<string, number> = {};
  let okMs: number[] = [];
  let counts = { requests: 0, ok: 0, shed: 0, errors: 0 };
  let running = true;
  let next = 0;
  const loop = async () => {
    while (running) {
      const url = urls[next++ % urls.length] as string;
      const started = performance.now();
      let status = 0;
      try {
        const res = await fetch(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        // No answer: counted as status 0; a pause so a dead API is not spun on.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
      counts.requests++;
      if (status >= 200 && status < 300) {
        counts.ok++;
        okMs.push(performance.now() - started);
      } else if (status === 503) counts.shed++;
      else counts.errors++;
    }
  };
  const looping = Array.from({ length: loops }, loop);
  return {
    statuses,
    take() {
      const sorted = okMs.sort((a, b) => a - b);
      const at = (q: number) =>
        sorted.length === 0
          ? null
          : Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number).toFixed(1));
      const out = { ...counts, p50Ms: at(0.5), p99Ms: at(0.99) };
      okMs = [];
      counts = { requests: 0, ok: 0, shed: 0, errors: 0 };
      return out;
    },
    async stop() {
      running = false;
      await Promise.all(looping);
    },
  };
}
