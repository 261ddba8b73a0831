import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEVIATIONS, explain } from './conformance/deviations';
import { testDirs } from './conformance/expected';
import { decodeVersions, inputVersions } from './conformance/inputs';
import { compareMarket } from './conformance/market';
import type { Mismatch } from './conformance/mismatch';
import { compareToken } from './conformance/token';
import { FIXTURES, NO_FIXTURES, SKIP_REASON } from './fixture-context';

const root = FIXTURES ?? '';
const tokenDirs = NO_FIXTURES ? [] : testDirs(root, 'expected/token_v2_processor');
const marketDirs = NO_FIXTURES ? [] : testDirs(root, 'expected/nft_aggregator');
const used = new Set<string>();

function unexplained(mismatches: Mismatch[]): Mismatch[] {
  return mismatches.filter((mismatch) => {
    const deviation = explain(mismatch);
    if (deviation) used.add(deviation.id);
    return deviation === undefined;
  });
}

describe.skipIf(NO_FIXTURES)('conformance with the official Aptos processors', () => {
  it('covers all 18 token_v2_processor and 22 nft_aggregator test folders', () => {
    expect(tokenDirs).toHaveLength(18);
    expect(marketDirs).toHaveLength(22);
  });

  describe('token_v2_processor', () => {
    it.each(tokenDirs)('%s', (dir) => {
      const versions = inputVersions(root, dir);
      expect(versions.length).toBeGreaterThan(0);
      expect(unexplained(compareToken(root, dir, decodeVersions(root, versions)).mismatches)).toEqual([]);
    });
  });

  describe('nft_aggregator', () => {
    it.each(marketDirs)('%s', (dir) => {
      const versions = inputVersions(root, dir);
      expect(versions.length).toBeGreaterThan(0);
      expect(unexplained(compareMarket(root, dir, decodeVersions(root, versions)).mismatches)).toEqual([]);
    });
  });

  it('every listed deviation is still needed', () => {
    expect(DEVIATIONS.map((deviation) => deviation.id).filter((id) => !used.has(id))).toEqual([]);
  });

  it('every deviation is documented in CONFORMANCE.md', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', 'CONFORMANCE.md'), 'utf8');
    for (const deviation of DEVIATIONS) expect(doc).toMatch(new RegExp(`\\|\\s*${deviation.id}\\s*\\|`));
  });
});

if (NO_FIXTURES) describe.skip(SKIP_REASON, () => {});
