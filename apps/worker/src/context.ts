import type { RetentionConfig } from '@mdq/config';
import type { Db } from '@mdq/db';
import type { WorkerLogger } from './logger';
import type { MediaRenderer } from './media/media-renderer';
import type { MetadataCrawlOptions } from './metadata/crawl-collection';
import type { UriCacheOptions } from './uri/resolve-collection-uri';

/** What every processor needs; the transport (BullMQ or in-process) supplies the enqueue functions. */
export interface WorkerContext {
  db: Db;
  logger: WorkerLogger;
  uri: UriCacheOptions;
  /** The metadata crawler's limits and gateways, with the per-host gate this process shares. */
  metadata: MetadataCrawlOptions;
  /** How many collections one URI sweep resolves (and one metadata sweep enqueues). */
  uriSweepBatch: number;
  /** How long the tables that grow with time keep their rows (the `retention` job). */
  retention: RetentionConfig;
  /** The thumbnail renderer shared with the API (same cache directory); no pre-rendering without it. */
  media?: MediaRenderer | undefined;
  /** Ask for one (coalesced) recompute of every ranking soon. */
  requestRankingsRefresh(): Promise<void>;
  /** Ask for one collection's URI to be resolved (deduplicated per collection). */
  requestUriResolve(collectionId: string): Promise<void>;
  /** Ask for one collection's due metadata documents to be crawled (deduplicated per collection). */
  requestMetadataCrawl(collectionId: string): Promise<void>;
}
