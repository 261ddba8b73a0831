import pino from 'pino';
import { createFailureLog, failureKey, truncate } from './failure-log';
import { redactSecrets } from './redact';

/** Header and field names that hold a credential: censored wherever a line carries them. */
const CREDENTIAL_FIELDS = [
  'apiKey',
  'adminKey',
  'secret',
  'authorization',
  '*.apiKey',
  '*.adminKey',
  '*.secret',
  '*.authorization',
  '*.headers.authorization',
  '*.headers["x-api-key"]',
  '*.headers["x-admin-key"]',
  '*.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["x-admin-key"]',
  'headers.cookie',
];

/** What every part of mdq logs through: pino, fields first, then the message. */
export type Logger = pino.Logger;
export type LogLevel = pino.LevelWithSilent;

/** A log line as written (one JSON object per line); the README's "Logs" section documents it. */
export interface LogLine {
  level: string;
  time: string;
  component?: string;
  msg: string;
  [field: string]: unknown;
}

export interface LoggerOptions {
  /** `fatal` … `trace`, or `silent` (default `info`). */
  level?: LogLevel;
  /** Where lines go (default stderr, written synchronously: the lines just before an exit are not lost). */
  destination?: pino.DestinationStream;
  /**
   * Warnings and errors about a failure (a line with an `err`) become one line per distinct failure
   * per window, with a `count` (default true; createFailureLog). A line that carries a `count` of
   * its own was counted by its caller and passes as it is, as does a warning without an `err`.
   */
  dedupe?: boolean;
}

const LEVELS = pino.levels.values;

/**
 * An error as a log field: its type and message cut short, and its stack only at debug / trace.
 * An outage fails everything the same way; a stack per failure once wrote 33 MB.
 */
function errorSerializer(withStack: boolean): (error: unknown) => unknown {
  return (error) => {
    if (!(error instanceof Error)) return typeof error === 'string' ? truncate(error) : error;
    return {
      type: error.name,
      message: truncate(error.message),
      ...(withStack && error.stack ? { stack: truncate(error.stack, 2_000) } : {}),
    };
  };
}

/** The text of the error a line carries, for its de-duplication key. */
function errorText(fields: Record<string, unknown>): string {
  const err = fields['err'];
  return err instanceof Error ? err.message : String(err ?? '');
}

/**
 * The one way a logger is made: one JSON object per line with `level` (a name), `time` (ISO-8601),
 * `component` (set by a child: `api`, `indexer`, `worker`…), `msg`, then the fields; errors under
 * `err` as `{ type, message }`.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const failures = options.dedupe === false ? null : createFailureLog();
  const serialize = errorSerializer(level === 'debug' || level === 'trace');
  return pino(
    {
      level,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serialize },
      redact: { paths: CREDENTIAL_FIELDS, censor: '[redacted]' },
      hooks: {
        // The last word on every line, whatever field or message carries a credential (redact.ts).
        streamWrite: redactSecrets,
        logMethod(args, method, levelValue) {
          const [first, ...rest] = args as unknown[];
          const fields =
            typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : null;
          if (
            !failures ||
            levelValue < (LEVELS['warn'] ?? 40) ||
            !fields ||
            !('err' in fields) ||
            'count' in fields
          ) {
            method.apply(this, args as Parameters<typeof method>);
            return;
          }
          const message = typeof rest[0] === 'string' ? rest[0] : '';
          const key = failureKey(`${levelValue} ${message} ${errorText(fields)}`);
          failures.report(key, ({ count }) =>
            method.apply(this, [{ ...fields, ...(count > 1 ? { count } : {}) }, ...rest] as Parameters<
              typeof method
            >),
          );
        },
      },
    },
    options.destination ?? standardError(),
  );
}

/**
 * stderr for the JSON lines. A write that fails (EPIPE: the pipe stderr went to has closed, as
 * `mdq start 2>&1 | tee log` after Ctrl-C) is an 'error' event of the stream, which with no listener
 * would end the process mid-shutdown; a log line that cannot be written is dropped instead.
 */
function standardError(): pino.DestinationStream {
  const destination = pino.destination({ dest: 2, sync: true });
  destination.on('error', () => undefined);
  return destination;
}

let processLog: Logger | null = null;

/**
 * The process's logger, for code that is not handed one (connection pools, Redis error sinks, the
 * default of each app). The CLI sets it once from MDQ_LOG_LEVEL before it starts anything; until
 * then it is a stderr logger at `info`.
 */
export function processLogger(): Logger {
  processLog ??= createLogger();
  return processLog;
}

export function setProcessLogger(logger: Logger): void {
  processLog = logger;
}

/**
 * A logger whose lines are handed to `onLine` as parsed objects, every level, none folded: for
 * tests that read what a part logged through the same formatting as production.
 */
export function recordingLogger(onLine: (line: LogLine) => void): Logger {
  return createLogger({
    level: 'trace',
    dedupe: false,
    destination: { write: (text: string) => onLine(JSON.parse(text) as LogLine) },
  });
}
