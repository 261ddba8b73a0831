import type { Config } from '@mdq/config';
import { redisAnswers } from '@mdq/jobs';
import { UsageError } from './fail';

const LOCAL_REDIS = 'redis://127.0.0.1:6379';

/**
 * REDIS_URL when set (it must answer); otherwise a local Redis if one answers; otherwise null,
 * and the worker runs its processors in-process on the same schedules.
 */
export async function resolveRedisUrl(config: Config): Promise<string | null> {
  if (config.redisUrl) {
    if (!(await redisAnswers(config.redisUrl, 2_000))) {
      throw new UsageError(`REDIS_URL does not answer: ${config.redisUrl.replace(/\/\/[^@]*@/, '//***@')}`);
    }
    return config.redisUrl;
  }
  return (await redisAnswers(LOCAL_REDIS, 300)) ? LOCAL_REDIS : null;
}
