export {
  createFailureLog,
  describeError,
  type FailureLog,
  type FailureLogOptions,
  failureKey,
  type Occurrences,
  truncate,
} from './failure-log';
