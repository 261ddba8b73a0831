import { describe, expect, it } from 'vitest';
import { createFailureLog, describeError, failureKey, truncate } from '../src/index';

describe('failure log', () => {
  it('writes one line per distinct failure, then one line with the count of its repeats', () => {
    const log = createFailureLog({ windowMs: 600_000 });
    const lines: string[] = [];
    for (let i = 0; i < 1_000; i++) {
      const key = failureKey(`connect ECONNREFUSED 127.0.0.1:${5400 + (i % 7)}`);
      log.report(key, ({ count }) => lines.push(`refused x${count}`));
    }
    log.report(failureKey('terminating connection due to administrator command'), ({ count }) =>
      lines.push(`terminated x${count}`),
    );
    expect(lines).toEqual(['refused x1', 'terminated x1']);
    log.close();
    expect(lines).toEqual(['refused x1', 'terminated x1', 'refused x999']);
  });

  it('stays bounded in distinct failures it remembers', () => {
    const log = createFailureLog({ windowMs: 600_000, maxKeys: 3 });
    const lines: string[] = [];
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      log.report(name, ({ count }) => lines.push(`${name}${count}`));
      log.report(name, ({ count }) => lines.push(`${name}${count}`));
    }
    // a and b were evicted to make room, their one repeat written as they left.
    expect(lines).toEqual(['a1', 'b1', 'c1', 'd1', 'a1', 'e1', 'b1']);
    log.close();
  });

  it('cuts long bodies in what it logs', () => {
    const body = `{"transactions":[${'"x",'.repeat(200_000)}`;
    const text = describeError(new SyntaxError(`Unexpected end of JSON input: ${body}`));
    expect(text.length).toBeLessThan(400);
    expect(text).toMatch(/^SyntaxError: Unexpected end of JSON input: \{"transactions"/);
    expect(text).toMatch(/… \(\d{6,} chars\)$/);
    expect(truncate('short')).toBe('short');
  });
});
