import { recordingLogger } from '@mdq/log';
import { describe, expect, it } from 'vitest';
import { collectionChangedJob } from '../src/jobs/collection-changed';
import type { AnyJob } from '../src/jobs/define-job';
import { rankingsRefreshJob } from '../src/jobs/rankings-refresh';
import { JOBS } from '../src/jobs/registry';
import { startWorker, type WorkerHandle } from '../src/start-worker';
import type { StartWorkerOptions } from '../src/worker-options';
import { useBullmqTest } from './bullmq-test';
import { addr, insertCollection, insertToken, insertTraits } from './helpers';
import { eventually } from './wait';

/*
 * Both runners are built from the one job registry: every registered job runs in each, and
 * requests coalesce by the one rule of @mdq/jobs (`coalescing.ts`). Jobs are the registry's own,
 * wrapped to record their runs; every run does its real work on a real database.
 */
const setup = useBullmqTest('registry');
const COLLECTION = addr(0x3131);

/** What a job without a schedule is requested with in the test (a scheduled one uses its schedule's). */
const REQUESTS: Record<string, unknown> = {
  [collectionChangedJob.name]: { collectionId: COLLECTION, version: 1, changedAt: Date.now() },
  [rankingsRefreshJob.name]: {},
  resolve: { collectionId: COLLECTION },
  metadata: { collectionId: COLLECTION },
};

const runners = ['bullmq', 'in-process'] as const;
let workers = 0;

async function start(mode: (typeof runners)[number], jobs: readonly AnyJob[]): Promise<WorkerHandle> {
  const options: StartWorkerOptions = {
    db: setup.db,
    redisUrl: mode === 'bullmq' ? setup.url : null,
    // A prefix per worker, so no job left waiting by one is run by the next; removed with the file's.
    prefix: `${setup.prefix}:${++workers}`,
    logger: recordingLogger((line) => {
      if (line.level === 'error') console.error(mode, line.msg, line);
    }),
    schedules: false,
    collectionChangedDelayMs: 0,
    rankingsRefreshWindowMs: 0,
    shutdownGraceMs: 5_000,
    uri: { ipfsGateways: [], arweaveGateway: 'http://127.0.0.1:1/' },
    jobs,
  };
  const worker = await startWorker(options);
  expect(worker.mode).toBe(mode);
  return worker;
}

/** True when no queue of the worker holds a waiting, delayed or running job. */
async function quiet(worker: WorkerHandle): Promise<boolean> {
  const counts = await worker.jobCounts();
  return Object.values(counts).every(
    (c) => (c['waiting'] ?? 0) + (c['delayed'] ?? 0) + (c['active'] ?? 0) === 0,
  );
}

/** `job` whose first run waits for `release()` before doing its work; `started` lists each run's payload. */
function gated(job: AnyJob) {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const started: unknown[] = [];
  const wrapped: AnyJob = {
    ...job,
    async run(ctx, payload) {
      started.push(payload);
      if (started.length === 1) await gate;
      return job.run(ctx, payload);
    },
  };
  return { wrapped, started, release: () => release() };
}

describe('the job registry', () => {
  it('every registered job runs in both runners', { timeout: 120_000 }, async () => {
    await insertCollection(setup.db, COLLECTION);
    await insertToken(setup.db, addr(0x313101), COLLECTION);
    await insertTraits(setup.db, addr(0x313101), COLLECTION, { kind: 'only' });
    for (const mode of runners) {
      const finished = new Set<string>();
      const jobs = JOBS.map(
        (job): AnyJob => ({
          ...job,
          async run(ctx, payload) {
            const result = await job.run(ctx, payload);
            finished.add(job.name);
            return result;
          },
        }),
      );
      const worker = await start(mode, jobs);
      try {
        for (const job of JOBS) {
          const payload = job.name in REQUESTS ? REQUESTS[job.name] : job.schedules[0]?.payload;
          expect(payload, `a request for ${job.name}`).toBeDefined();
          await worker.enqueue(job, payload);
        }
        await eventually(
          async () => expect([...finished].sort(), mode).toEqual(JOBS.map((j) => j.name).sort()),
          60_000,
        );
      } finally {
        await worker.close();
      }
    }
  });

  it('a burst of requests while a run is in flight gives exactly one more run, in both runners', {
    timeout: 120_000,
  }, async () => {
    const BURST = 20;
    const cases = [
      {
        job: collectionChangedJob as AnyJob,
        request: (worker: WorkerHandle, n: number) => worker.notifier.collectionsChanged([COLLECTION], n),
      },
      {
        job: rankingsRefreshJob as AnyJob,
        request: (worker: WorkerHandle) => worker.enqueue(rankingsRefreshJob, {}),
      },
    ];
    for (const { job, request } of cases) {
      for (const mode of runners) {
        const { wrapped, started, release } = gated(job);
        const worker = await start(
          mode,
          JOBS.map((j) => (j.name === job.name ? wrapped : j)),
        );
        try {
          await request(worker, 1);
          await eventually(async () => expect(started.length).toBe(1));
          for (let n = 2; n <= BURST + 1; n++) await request(worker, n);
          release();
          await eventually(async () => expect(await quiet(worker)).toBe(true), 60_000);
          expect(started.length, `${job.name} on ${mode}`).toBe(2);
          // The follow-up carries the latest request.
          if (job === collectionChangedJob) {
            expect(
              started.map((p) => (p as { version: number }).version),
              mode,
            ).toEqual([1, BURST + 1]);
          }
        } finally {
          release();
          await worker.close();
        }
      }
    }
  });
});
