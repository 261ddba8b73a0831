import { redisAnswers } from './redis';

/**
 * For tests that need Redis: REDIS_URL, else the local redis://127.0.0.1:6379. When none answers
 * the test file fails with one line saying how to start one (there is no embedded Redis; under
 * CI=true the service is expected anyway).
 */
export async function requireTestRedis(): Promise<string> {
  const url = process.env['REDIS_URL'] || 'redis://127.0.0.1:6379';
  if (!(await redisAnswers(url, 2_000))) {
    throw new Error(
      `no Redis answers at ${url.replace(/\/\/[^@]*@/, '//***@')}: start one (\`redis-server --daemonize yes\`, or \`docker run -d -p 6379:6379 redis:7\`) or set REDIS_URL`,
    );
  }
  return url;
}
