import type { RetentionConfig } from '@mdq/config';
import type { Db } from '@mdq/db';
import { type ChangeBacklog, type Coalescing, JOB_POLICIES, type JobPolicy, type QueueName } from '@mdq/jobs';
import type { WorkerLogger } from '../logger';
import type { MediaRenderer } from '../media/media-renderer';
import type { MetadataCrawlOptions } from '../metadata/crawl-collection';
import type { RarityPacer } from '../tasks/rarity-pacer';
import type { UriCacheOptions } from '../uri/resolve-collection-uri';

/** What every job's run needs; the runner (BullMQ or in-process) supplies `backlog` and `enqueue`. */
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
  /** The instant the aggregates compute at (the wall clock, or a benchmark's chain time). */
  clock(): Date;
  /** This worker's pace of OpenRarity recomputes (the collection-changed job's). */
  rarityPacer: RarityPacer;
  /** Each collection's first change not yet taken by a collection-changed run (the lag report). */
  backlog: ChangeBacklog;
  /** Requests a run of `job`, coalesced with the other requests of its key (`@mdq/jobs` coalescing). */
  enqueue<P>(job: JobDefinition<P>, payload: P): Promise<void>;
}

/** The windows a job's coalescing can read: worker options, so tests and benches can shorten them. */
export interface CoalesceWindows {
  collectionChangedDelayMs: number;
  rankingsRefreshWindowMs: number;
}

/** A cron pattern (UTC) that runs the job with `payload`; `id` names its BullMQ job scheduler. */
export interface JobSchedule<P> {
  id: string;
  pattern: string;
  payload: P;
}

/** One job: what both runners read to queue, schedule, coalesce, retry and run it. */
export interface JobDefinition<P> {
  /** The BullMQ job name, unique in the registry: the runners find the job's `run` by it. */
  name: string;
  queue: QueueName;
  /** Attempts, backoff and history kept. */
  policy: JobPolicy;
  run(ctx: WorkerContext, payload: P): Promise<unknown>;
  /** The coalescing key of a request and its window. */
  coalesce(payload: P, windows: CoalesceWindows): Coalescing;
  schedules: readonly JobSchedule<P>[];
}

/** Any registered job, whatever its payload (the runners hand each job the payload it was given). */
export type AnyJob = JobDefinition<unknown>;

interface JobSpec<P> {
  name: string;
  queue: QueueName;
  /** Default: the queue's policy in `JOB_POLICIES`. */
  policy?: JobPolicy;
  run(ctx: WorkerContext, payload: P): Promise<unknown>;
  /**
   * Requests with the same key share a run. Default: the job's name, no window (one run at a time,
   * a request during it runs it once more).
   */
  coalesce?: { key(payload: P): string; windowMs?(windows: CoalesceWindows): number };
  schedules?: readonly JobSchedule<P>[];
}

/** Declares one job; it runs once it is listed in `JOBS` (`registry.ts`). */
export function defineJob<P>(spec: JobSpec<P>): JobDefinition<P> {
  const { coalesce } = spec;
  return {
    name: spec.name,
    queue: spec.queue,
    policy: spec.policy ?? JOB_POLICIES[spec.queue],
    run: spec.run,
    coalesce: (payload, windows) => ({
      key: coalesce ? coalesce.key(payload) : spec.name,
      windowMs: coalesce?.windowMs?.(windows) ?? 0,
    }),
    schedules: spec.schedules ?? [],
  };
}

/** The payload of a job that needs none (a scheduled sweep, a refresh of everything). */
export type NoPayload = Record<string, never>;

/** The context without what each runner supplies. */
export type WorkerBase = Omit<WorkerContext, 'backlog' | 'enqueue'>;
