import { Redis } from 'ioredis';
import { addJob, jobQueue } from './bullmq-jobs';
import { metadataCrawlJob } from './jobs/metadata-crawl';
import { DEFAULT_COALESCE_WINDOWS } from './worker-options';

/**
 * For a process that only asks for crawls (`mdq api` run alone, the refresh-metadata route): adds
 * them to the worker's queue. Its connection fails fast while Redis is down (the route then answers
 * that the sweep will pick the request up) instead of holding the request.
 */
export function metadataCrawlProducer(
  redisUrl: string,
  prefix: string,
): { request(collectionId: string): Promise<void>; close(): Promise<void> } {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  connection.on('error', () => {
    // Each failed add reports itself to its caller; the connection retries on its own.
  });
  const queue = jobQueue(connection, prefix, metadataCrawlJob.queue);
  return {
    request: (collectionId) => addJob(queue, metadataCrawlJob, { collectionId }, DEFAULT_COALESCE_WINDOWS),
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}
