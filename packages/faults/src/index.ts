/** What the benchmarks use of the fault suite's machinery: the soak run, a private Postgres and Redis. */
export { startPrivatePostgres } from './private-postgres';
export { startPrivateRedis } from './private-redis';
export {
  PROCESS_NAMES,
  type ProcessName,
  runSoak,
  type SoakOptions,
  type SoakResult,
  type SoakSample,
} from './soak';
