export {
  createFailureLog,
  describeError,
  type FailureLog,
  type FailureLogOptions,
  failureKey,
  type Occurrences,
  truncate,
  writePendingFailureCounts,
} from './failure-log';
export {
  createLogger,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  type LogLine,
  processLogger,
  recordingLogger,
  setProcessLogger,
} from './logger';
export { redactSecrets, redactUrl, registerSecret } from './redact';
