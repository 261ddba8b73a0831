import { createFailureLog, failureKey, truncate } from '@mdq/log';

export interface WorkerLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

// A database outage fails every job the same way: one line per distinct failure per window, with
// a count, instead of a stack trace per failed job.
const failures = createFailureLog();

function write(level: 'warn' | 'error', message: string, fields: Record<string, unknown> = {}): void {
  const key = failureKey(`${level} ${message} ${String(fields['error'] ?? '')}`);
  failures.report(key, ({ count }) =>
    process.stderr.write(
      `${JSON.stringify({ level, message, ...fields, ...(count > 1 ? { count } : {}) })}\n`,
    ),
  );
}

/** Default: failures and warnings to stderr as one JSON line each (repeats counted); info is quiet. */
export const stderrLogger: WorkerLogger = {
  info() {},
  warn: (message, fields) => write('warn', message, fields),
  error: (message, fields) => write('error', message, fields),
};

/** An error for a log line: its message and stack cut short (messages can embed whole bodies). */
export function errorFields(err: unknown): Record<string, unknown> {
  return err instanceof Error
    ? { error: truncate(err.message), stack: truncate(err.stack ?? '', 1_000) }
    : { error: truncate(String(err)) };
}
