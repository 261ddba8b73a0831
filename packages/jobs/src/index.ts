export * from './producer';
export * from './queues';
export { createRedis, redisAnswers } from './redis';
