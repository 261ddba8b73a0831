import { Redis } from 'ioredis';

/** BullMQ workers block on Redis; it requires maxRetriesPerRequest: null on their connections. */
export function createRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
}

/** True when a Redis answers PING at `url` within the timeout (used to pick BullMQ or in-process). */
export async function redisAnswers(url: string, timeoutMs = 500): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
