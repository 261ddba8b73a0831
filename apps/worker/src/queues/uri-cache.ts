import { JOB_POLICIES, QUEUE_NAMES } from '@mdq/jobs';
import { type JobsOptions, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { WorkerContext } from '../context';
import { resolveCollectionUri } from '../uri/resolve-collection-uri';

/** The `uri-cache` queue: one job per collection to resolve. */
const URI_CACHE_QUEUE = QUEUE_NAMES.uriCache;

export interface UriCachePayload {
  collectionId: string;
}

/** Prefixed so it is never all digits (and no colon: BullMQ 6 refuses one in custom ids). */
export function uriCacheJobId(collectionId: string): string {
  return `uri-${collectionId}`;
}

/** Retries and history: the uri-cache policy of the job runtime description in @mdq/jobs. */
const URI_JOB_OPTIONS: JobsOptions = JOB_POLICIES[URI_CACHE_QUEUE];

export async function processUriCache(
  ctx: WorkerContext,
  payload: UriCachePayload,
): Promise<{ status: string }> {
  const result = await resolveCollectionUri(ctx.db, payload.collectionId, ctx.uri);
  return { status: result.status };
}

export async function enqueueUriResolve(queue: Queue<UriCachePayload>, collectionId: string): Promise<void> {
  await queue.add('resolve', { collectionId }, { ...URI_JOB_OPTIONS, jobId: uriCacheJobId(collectionId) });
}

export function uriCacheQueue(connection: Redis, prefix: string): Queue<UriCachePayload> {
  return new Queue<UriCachePayload>(URI_CACHE_QUEUE, {
    connection,
    prefix,
    defaultJobOptions: URI_JOB_OPTIONS,
  });
}
