/** What the benchmarks use of the fault suite's machinery: the soak run, a private Postgres and Redis. */

export { type PrivateRedis, startPrivateRedis } from '@mdq/jobs/testing';
export { startPrivatePostgres } from './private-postgres';
export { type MdqProcess, spawnGrowingDevnet, spawnMdq, until, untilRunning } from './processes';
export {
  PROCESS_NAMES,
  type ProcessName,
  runSoak,
  type SoakOptions,
  type SoakResult,
  type SoakSample,
} from './soak';
export { metricValues, scrape } from './soak-readings';
