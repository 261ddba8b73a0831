import { describe, expect, it } from 'vitest';
import { openRarity } from '../src/rarity/open-rarity';

const token = (tokenId: string, traits: Record<string, string>) => ({
  tokenId,
  traits: new Map(Object.entries(traits)),
});

describe('OpenRarity', () => {
  it('scores information content over collection entropy, with absent values and trait count', () => {
    // color: red 2/4, blue 1/4, absent 1/4; hat: yes 1/4, absent 3/4; trait count: 2→1/4, 1→2/4, 0→1/4.
    const results = openRarity([
      token('A', { color: 'red', hat: 'yes' }),
      token('B', { color: 'red' }),
      token('C', { color: 'blue' }),
      token('D', {}),
    ]);
    const entropy = 1.5 + (0.5 + 0.75 * Math.log2(4 / 3)) + 1.5;
    const absentHat = Math.log2(4 / 3);
    const expected: Record<string, number> = {
      A: (1 + 2 + 2) / entropy,
      B: (1 + absentHat + 1) / entropy,
      C: (2 + absentHat + 1) / entropy,
      D: (2 + absentHat + 2) / entropy,
    };
    expect(results.map((r) => r.tokenId)).toEqual(['A', 'D', 'C', 'B']);
    expect(results.map((r) => r.rank)).toEqual([1, 2, 3, 4]);
    for (const r of results) expect(r.score).toBeCloseTo(expected[r.tokenId] ?? Number.NaN, 12);
    expect(results.find((r) => r.tokenId === 'A')?.traitCount).toBe(2);
    expect(results.find((r) => r.tokenId === 'D')?.traitCount).toBe(0);
  });

  it('gives equal scores one rank and skips the next (1, 1, 3, 3)', () => {
    const results = openRarity([
      token('a', { c: 'x' }),
      token('b', { c: 'y' }),
      token('c', { c: 'z' }),
      token('d', { c: 'z' }),
    ]);
    expect(results.map((r) => [r.tokenId, r.rank])).toEqual([
      ['a', 1],
      ['b', 1],
      ['c', 3],
      ['d', 3],
    ]);
    // IC 2 vs 1 bit over entropy 1.5 bits (the trait count carries none: every token has one trait).
    expect(results[0]?.score).toBeCloseTo(2 / 1.5, 12);
    expect(results[2]?.score).toBeCloseTo(1 / 1.5, 12);
  });

  it('ranks a collection of identical tokens all first with score 0', () => {
    const results = openRarity([token('a', { c: 'x' }), token('b', { c: 'x' })]);
    expect(results.map((r) => [r.rank, r.score])).toEqual([
      [1, 0],
      [1, 0],
    ]);
  });
});
