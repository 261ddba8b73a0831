/** What the benchmarks use of the fault suite's machinery: the soak run, a private Postgres and Redis. */

export { type PrivateRedis, startPrivateRedis } from '@mdq/jobs/testing';
export { startPrivatePostgres } from './private-postgres';
export {
  PROCESS_NAMES,
  type ProcessName,
  runSoak,
  type SoakOptions,
  type SoakResult,
  type SoakSample,
} from './soak';
