export * from './change-backlog';
export * from './job-runtime';
export * from './producer';
export * from './queues';
export { createRedis, redisAnswers } from './redis';
