import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from '../src/plugins/concurrency-limit';

// Times are given, never read from the clock: each step says when it happens.
const options = { initial: 10, min: 4, max: 100, windowMs: 100 };

describe('the adaptive concurrency limit', () => {
  it('admits up to its limit and frees a place on release', () => {
    const limit = new ConcurrencyLimit(20, options);
    for (let i = 0; i < 10; i += 1) expect(limit.tryAcquire(0)).toBe(true);
    expect(limit.tryAcquire(1)).toBe(false);
    limit.release(5, 2);
    expect(limit.tryAcquire(3)).toBe(true);
    expect(limit.current).toEqual({ limit: 10, inFlight: 10 });
  });

  it('shrinks by a tenth after a window whose fastest answer missed the target, down to its floor', () => {
    const limit = new ConcurrencyLimit(20, options);
    let now = 0;
    const expected = [9, 8, 7, 6, 5, 4, 4];
    for (const after of expected) {
      expect(limit.tryAcquire(now)).toBe(true);
      limit.release(50, now + 1);
      now += 101;
      limit.tryAcquire(now);
      limit.release(50, now);
      expect(limit.current.limit).toBe(after);
    }
  });

  it('grows while the fastest answers meet the target and the limit is used, not while it is idle', () => {
    const limit = new ConcurrencyLimit(20, options);
    // A window with every place taken and quick answers: one more place.
    for (let i = 0; i < 10; i += 1) limit.tryAcquire(0);
    limit.release(5, 10);
    limit.tryAcquire(101);
    expect(limit.current.limit).toBe(11);
    // Windows of quick answers that never fill the limit leave it where it is.
    for (let t = 202; t < 1000; t += 101) {
      limit.release(5, t);
      limit.tryAcquire(t);
    }
    expect(limit.current.limit).toBe(11);
  });
});
