import { JOB_POLICIES, QUEUE_NAMES } from '@mdq/jobs';
import { type JobsOptions, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { WorkerContext } from '../context';
import { crawlCollectionMetadata } from '../metadata/crawl-collection';
import { resolveCollectionUri } from '../uri/resolve-collection-uri';

/** The `uri-cache` queue: one job per collection to resolve, and one per collection to crawl documents of. */
const URI_CACHE_QUEUE = QUEUE_NAMES.uriCache;

export interface UriCachePayload {
  collectionId: string;
  /** `resolve` (default): the collection's image for the URI cache; `metadata`: crawl its documents. */
  task?: 'resolve' | 'metadata';
}

/** Prefixed so it is never all digits (and no colon: BullMQ 6 refuses one in custom ids). */
export function uriCacheJobId(collectionId: string): string {
  return `uri-${collectionId}`;
}

function metadataJobId(collectionId: string): string {
  return `metadata-${collectionId}`;
}

/** Retries and history: the uri-cache policy of the job runtime description in @mdq/jobs. */
const URI_JOB_OPTIONS: JobsOptions = JOB_POLICIES[URI_CACHE_QUEUE];

export async function processUriCache(ctx: WorkerContext, payload: UriCachePayload): Promise<unknown> {
  if (payload.task === 'metadata') {
    const result = await crawlCollectionMetadata(ctx.db, payload.collectionId, ctx.metadata);
    // A collection with more due documents than one batch takes continues in a fresh job, so other
    // collections' crawls interleave with it.
    if (result.more) await ctx.requestMetadataCrawl(payload.collectionId);
    return result;
  }
  const result = await resolveCollectionUri(ctx.db, payload.collectionId, ctx.uri);
  return { status: result.status };
}

export async function enqueueUriResolve(queue: Queue<UriCachePayload>, collectionId: string): Promise<void> {
  await queue.add('resolve', { collectionId }, { ...URI_JOB_OPTIONS, jobId: uriCacheJobId(collectionId) });
}

/** Crawl one collection's due metadata documents; one job per collection at a time. */
export async function enqueueMetadataCrawl(
  queue: Queue<UriCachePayload>,
  collectionId: string,
): Promise<void> {
  await queue.add(
    'metadata',
    { collectionId, task: 'metadata' },
    { ...URI_JOB_OPTIONS, jobId: metadataJobId(collectionId) },
  );
}

export function uriCacheQueue(connection: Redis, prefix: string): Queue<UriCachePayload> {
  return new Queue<UriCachePayload>(URI_CACHE_QUEUE, {
    connection,
    prefix,
    defaultJobOptions: URI_JOB_OPTIONS,
  });
}

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
  const queue = uriCacheQueue(connection, prefix);
  return {
    request: (collectionId) => enqueueMetadataCrawl(queue, collectionId),
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}
