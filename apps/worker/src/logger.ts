export interface WorkerLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Default: failures and warnings to stderr as one JSON line each; info is quiet. */
export const stderrLogger: WorkerLogger = {
  info() {},
  warn: (message, fields) =>
    process.stderr.write(`${JSON.stringify({ level: 'warn', message, ...fields })}\n`),
  error: (message, fields) =>
    process.stderr.write(`${JSON.stringify({ level: 'error', message, ...fields })}\n`),
};

export function errorFields(err: unknown): Record<string, unknown> {
  return err instanceof Error ? { error: err.message, stack: err.stack } : { error: String(err) };
}
