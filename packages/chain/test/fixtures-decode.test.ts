import { describe, expect, it } from 'vitest';
import { listFixtureFiles, loadFixtureTransaction } from '../src/fixtures/index';
import { decodeTransaction } from '../src/index';
import { FIXTURES, NO_FIXTURES, OPTIONS, SKIP_REASON } from './fixture-context';

const files = NO_FIXTURES ? [] : listFixtureFiles(FIXTURES);

describe.skipIf(NO_FIXTURES)('every fixture transaction converts and decodes', () => {
  it('finds all 55 transactions (52 mainnet + 3 devnet)', () => {
    expect(files).toHaveLength(55);
    expect(files.filter((file) => file.includes('/devnet/'))).toHaveLength(3);
  });

  it.each(files)('%s', (file) => {
    const fixture = loadFixtureTransaction(file, FIXTURES);
    const decoded = decodeTransaction(fixture.rest, OPTIONS);
    expect(decoded.version).toBe(Number(fixture.version));
    expect(decoded.success).toBe(true);
  });
});

if (NO_FIXTURES) describe.skip(SKIP_REASON, () => {});
