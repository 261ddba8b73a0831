/** What a failure line says: how many times it happened since the previous line about it. */
export interface Occurrences {
  count: number;
}

export interface FailureLogOptions {
  /** A distinct failure is written at most once per window (default 10 s). */
  windowMs?: number;
  /** Distinct failures remembered at most (default 1,000): memory stays bounded. */
  maxKeys?: number;
}

export interface FailureLog {
  /**
   * Reports one occurrence of the failure `key`. The first occurrence is written at once; repeats
   * within the window are counted and written as one line with the count when the window ends.
   */
  report(key: string, write: (occurrences: Occurrences) => void): void;
  /** Writes pending counts now (at shutdown). */
  flush(): void;
  close(): void;
}

interface Entry {
  since: number;
  suppressed: number;
  write: (occurrences: Occurrences) => void;
}

/** Every failure log of the process that is still open, for `writePendingFailureCounts`. */
const openLogs = new Set<FailureLog>();

/**
 * Writes the pending counts of every failure log of the process now. Called when a dependency
 * recovers (a Redis connection ready again): the repeats of its outage are written while they are
 * news, not at the end of a window that may fall in the middle of a shutdown.
 */
export function writePendingFailureCounts(): void {
  for (const log of openLogs) log.flush();
}

/**
 * De-duplicates failure logs: an outage that fails every request must not write a stack trace per
 * request (a 10 s Postgres outage once wrote 33 MB). One line per distinct failure per window, with
 * the number of times it happened.
 */
export function createFailureLog(options: FailureLogOptions = {}): FailureLog {
  const windowMs = options.windowMs ?? 10_000;
  const maxKeys = options.maxKeys ?? 1_000;
  const entries = new Map<string, Entry>();

  const emitDue = (now: number, all: boolean) => {
    for (const [key, entry] of entries) {
      if (!all && now - entry.since < windowMs) continue;
      if (entry.suppressed > 0) entry.write({ count: entry.suppressed });
      entries.delete(key);
    }
  };
  const timer = setInterval(() => emitDue(Date.now(), false), Math.max(250, Math.floor(windowMs / 2)));
  timer.unref();

  const log: FailureLog = {
    report(key, write) {
      const now = Date.now();
      const entry = entries.get(key);
      if (entry && now - entry.since < windowMs) {
        entry.suppressed += 1;
        entry.write = write;
        return;
      }
      if (entry) {
        // Window over: this line carries the repeats of the previous window and this occurrence.
        entries.delete(key);
        write({ count: entry.suppressed + 1 });
      } else {
        write({ count: 1 });
      }
      if (entries.size >= maxKeys) {
        const oldest = entries.keys().next().value;
        const evicted = oldest === undefined ? undefined : entries.get(oldest);
        if (evicted && evicted.suppressed > 0) evicted.write({ count: evicted.suppressed });
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(key, { since: now, suppressed: 0, write });
    },
    flush() {
      emitDue(Date.now(), true);
    },
    close() {
      emitDue(Date.now(), true);
      clearInterval(timer);
      openLogs.delete(log);
    },
  };
  openLogs.add(log);
  return log;
}

/** The key of a failure: its message with numbers and quoted values elided, so "port 5433" and "port 5434" agree. */
export function failureKey(message: string): string {
  return truncate(message, 200)
    .replace(/\d+/g, '#')
    .replace(/"[^"]*"/g, '"…"');
}

/** Cuts a text (a response body, an error message) for a log line. */
export function truncate(text: string, max = 300): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

/** "Name: message", cut short: error messages can embed whole response bodies. */
export function describeError(error: unknown, max = 300): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return truncate(text, max);
}
