import type { ChangeNotifier } from '@mdq/jobs';
import type { QueueCounts } from '@mdq/telemetry';
import type { ChangeLag } from './change-lag';
import type { WorkerContext } from './jobs/define-job';

/** What either runner (BullMQ or in-process) hands back once it runs the registry's jobs. */
export interface RunningWorker {
  /** What the indexer calls after each committed batch. */
  notifier: ChangeNotifier;
  /** Requests a run of a registered job, by its coalescing rule. */
  enqueue: WorkerContext['enqueue'];
  /** Queues one collection's metadata crawl (the API's refresh-metadata in `mdq start`). */
  requestMetadataCrawl(collectionId: string): Promise<void>;
  /** Collections waiting for a collection-changed recompute and the age of the oldest change. */
  changeLag(): Promise<ChangeLag>;
  /** Jobs per queue by state (waiting, delayed, active; BullMQ adds failed): the /metrics figures. */
  jobCounts(): Promise<QueueCounts>;
  /** Stops taking jobs, lets in-flight ones finish (bounded by shutdownGraceMs), closes connections. */
  close(): Promise<void>;
}
