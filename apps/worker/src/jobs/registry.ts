import { collectionChangedJob } from './collection-changed';
import { collectionSnapshotsJob } from './collection-snapshots';
import type { AnyJob } from './define-job';
import { inventorySnapshotsJob } from './inventory-snapshots';
import { mediaPrerenderJob } from './media-prerender';
import { metadataCrawlJob } from './metadata-crawl';
import { metadataSweepJob } from './metadata-sweep';
import { rankingJob } from './ranking';
import { rankingsRefreshJob } from './rankings-refresh';
import { rarityRefreshJob } from './rarity-refresh';
import { readVersionsFoldJob } from './read-versions-fold';
import { retentionJob } from './retention';
import { uriCacheSweepJob } from './uri-cache-sweep';
import { uriResolveJob } from './uri-resolve';

/**
 * Every job the worker runs. Both runners iterate this list: one BullMQ Worker (or in-process
 * lane) per queue named here, every schedule declared here, each job found by its name. A new job
 * is its file in this directory and one line here.
 */
export const JOBS: readonly AnyJob[] = [
  collectionChangedJob,
  rankingsRefreshJob,
  collectionSnapshotsJob,
  inventorySnapshotsJob,
  rankingJob,
  rarityRefreshJob,
  mediaPrerenderJob,
  uriCacheSweepJob,
  metadataSweepJob,
  readVersionsFoldJob,
  retentionJob,
  uriResolveJob,
  metadataCrawlJob,
];

/** The registry by job name; two jobs of one name would leave one of them unreachable. */
export function jobsByName(jobs: readonly AnyJob[]): ReadonlyMap<string, AnyJob> {
  const byName = new Map<string, AnyJob>();
  for (const job of jobs) {
    if (byName.has(job.name)) throw new Error(`two jobs are named ${job.name}`);
    byName.set(job.name, job);
  }
  return byName;
}
