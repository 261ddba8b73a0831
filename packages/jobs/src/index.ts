export * from './change-backlog';
export * from './coalescing';
export * from './job-runtime';
export * from './producer';
export * from './queues';
export {
  createRedis,
  dedupedRedisSink,
  type RedisErrorSink,
  type RedisFailureWriter,
  redisAnswers,
  redisErrorSink,
  reportErrors,
  stderrRedisSink,
} from './redis';
