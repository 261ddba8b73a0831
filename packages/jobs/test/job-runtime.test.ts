import { describe, expect, it } from 'vitest';
import { JOB_POLICIES, nextCronRun, QUEUE_NAMES, retryDelayMs } from '../src/index';

describe('job runtime description', () => {
  it('retry delays follow each queue policy, then give up', () => {
    const delays = (queue: keyof typeof JOB_POLICIES) => {
      const out: (number | null)[] = [];
      for (let made = 1; made <= JOB_POLICIES[queue].attempts; made++) {
        out.push(retryDelayMs(JOB_POLICIES[queue], made));
      }
      return out;
    };
    expect(delays(QUEUE_NAMES.collectionChanged)).toEqual([1_000, 2_000, 4_000, 8_000, null]);
    expect(delays(QUEUE_NAMES.aggregates)).toEqual([5_000, 10_000, 20_000, null]);
    expect(delays(QUEUE_NAMES.uriCache)).toEqual([2_000, 4_000, null]);
  });

  it('finds the next cron instant in UTC, strictly after the given time', () => {
    const at = (iso: string) => Date.parse(iso);
    const next = (pattern: string, iso: string) => new Date(nextCronRun(pattern, at(iso))).toISOString();
    expect(next('*/5 * * * *', '2026-11-20T10:17:30Z')).toBe('2026-11-20T10:20:00.000Z');
    expect(next('*/5 * * * *', '2026-11-20T10:20:00Z')).toBe('2026-11-20T10:25:00.000Z');
    expect(next('2 * * * *', '2026-11-20T23:59:00Z')).toBe('2026-11-21T00:02:00.000Z');
    expect(next('15 3 * * *', '2026-12-31T04:00:00Z')).toBe('2027-01-01T03:15:00.000Z');
  });
});
