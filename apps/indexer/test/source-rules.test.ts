import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import { describe, expect, it } from 'vitest';
import { checkContiguity, GapError } from '../src/index';
import { parseRetryAfter } from '../src/source-errors';

const page = (...versions: number[]) =>
  versions.map((version) => ({ version: String(version) }) as unknown as TransactionResponse);

describe('contiguity by range (a filtered stream)', () => {
  it('accepts a page whose transactions skip, inside the range it accounts for, and ends at the range', () => {
    expect(checkContiguity(page(5, 9, 14), 3, false, 20)).toBe(20);
    // Every transaction of the range filtered out: the page still moves the checkpoint.
    expect(checkContiguity([], 21, false, 40)).toBe(40);
  });

  it('refuses a transaction past the range, or out of order', () => {
    expect(() => checkContiguity(page(5, 21), 3, false, 20)).toThrow(GapError);
    expect(() => checkContiguity(page(9, 5), 3, false, 20)).toThrow(GapError);
    expect(() => checkContiguity(page(2), 3, false, 20)).toThrow(GapError);
  });

  it('still asks an unranged page for every version', () => {
    expect(checkContiguity(page(3, 4, 5), 3, false)).toBe(5);
    expect(() => checkContiguity(page(3, 5), 3, false)).toThrow('versions 4..4 missing');
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(['7'])).toBe(7000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(undefined)).toBeNull();
  });
});
