/**
 * Ctrl-C / SIGTERM: run the registered closers in reverse order of start, once, then exit. A second
 * signal while closing forces the exit.
 */
export function onShutdown(
  closers: (() => Promise<void>)[],
  log: (line: string) => void = console.error,
): AbortSignal {
  const controller = new AbortController();
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) process.exit(130);
    closing = true;
    log(`mdq: ${signal} received, shutting down`);
    controller.abort();
    for (const close of [...closers].reverse()) {
      await close().catch((error: unknown) => log(`mdq: error while closing: ${String(error)}`));
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  return controller.signal;
}
