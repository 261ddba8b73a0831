import type { RetentionConfig } from '@mdq/config';
import type { Db } from '@mdq/db';
import type { WorkerLogger } from './logger';
import type { MediaRenderer } from './media/media-renderer';
import type { UriCacheOptions } from './uri/resolve-collection-uri';

/** What every processor needs; the transport (BullMQ or in-process) supplies the enqueue functions. */
export interface WorkerContext {
  db: Db;
  logger: WorkerLogger;
  uri: UriCacheOptions;
  /** How many collections one URI sweep resolves. */
  uriSweepBatch: number;
  /** How long the tables that grow with time keep their rows (the `retention` job). */
  retention: RetentionConfig;
  /** The thumbnail renderer shared with the API (same cache directory); no pre-rendering without it. */
  media?: MediaRenderer | undefined;
  /** Ask for one (coalesced) recompute of every ranking soon. */
  requestRankingsRefresh(): Promise<void>;
  /** Ask for one collection's URI to be resolved (deduplicated per collection). */
  requestUriResolve(collectionId: string): Promise<void>;
}
