/** Queue names and payloads shared by the indexer (producer) and the worker (consumer). */
export const QUEUE_NAMES = {
  /** A collection's sales, listings, owners or tokens changed: refresh its derived data soon. */
  collectionChanged: 'collection-changed',
  /** Scheduled aggregates (job schedulers live in the worker). */
  aggregates: 'aggregates',
  /** Collection metadata / image resolution. */
  uriCache: 'uri-cache',
} as const;

export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export interface CollectionChangedPayload {
  collectionId: string;
  /** The chain version of the batch that touched it, for logs and staleness checks. */
  version: number;
  /** When the producer saw the change (epoch ms); a follow-up job carries its latest change. */
  changedAt: number;
}

/** BullMQ refuses job ids made only of digits; every id we make has a prefix. */
export function collectionChangedJobId(collectionId: string): string {
  return `collection:${collectionId}`;
}

/** Queue key prefix; tests use a unique one each so parallel files never share jobs. */
export const DEFAULT_PREFIX = 'mdq';
