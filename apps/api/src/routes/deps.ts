import type { Db } from '@mdq/db';
import type { IndexerLimits } from '../graphql/plan';
import type { ReadStateSource } from '../plugins/freshness';
import type { ResponseCacheBounds } from '../plugins/response-cache';

/**
 * Resolves (fetches and caches) a collection's image URI; the worker provides the real one. It
 * writes collection_uri_cache; the utility route then answers with what the cache holds. Without
 * one the route only queues the collection as pending.
 */
export type CollectionUriResolver = (collectionId: string) => Promise<unknown>;

/** Queues one collection's metadata crawl on the worker (refresh-metadata); absent: the sweep does it. */
export type MetadataCrawlRequester = (collectionId: string) => Promise<void>;

/** What every route plugin is given: its own file, so that route files and the index need not import each other. */
export interface RouteDeps {
  db: Db;
  readDb: Db;
  /** The process's read state (version + freshness), taken once per request before the handler. */
  readState: ReadStateSource;
  resolveCollectionUri?: CollectionUriResolver | undefined;
  requestMetadataCrawl?: MetadataCrawlRequester | undefined;
  /** The service's "now" for statuses and windows; tests pin it to a chain's end. */
  now: () => Date;
  /** Rows a key may export per UTC day. */
  exportRowsPerDay: number;
  /** zlib settings of a gzipped export, over the route's measured defaults (the bench compares levels). */
  exportGzip?: { level?: number; chunkSize?: number } | undefined;
  /** Version-keyed response cache bounds (MDQ_API_CACHE_ENTRIES, 0 turning it off; MDQ_API_CACHE_MB). */
  cache?: ResponseCacheBounds;
  /** The Indexer API GraphQL endpoint: its connections (read-only, its own statement timeout) and caps. */
  graphql: { db: Db; limits: IndexerLimits };
}
