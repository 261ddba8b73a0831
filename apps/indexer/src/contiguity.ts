import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import { versionOf } from './source';

/** A source answered with versions that do not continue where the indexer stands. */
export class GapError extends Error {
  override name = 'GapError';
  constructor(
    readonly expected: number,
    readonly received: number,
  ) {
    super(
      received > expected
        ? `gap in the source: expected version ${expected}, got ${received} (versions ${expected}..${received - 1} missing)`
        : `source out of order: expected version ${expected}, got ${received}`,
    );
  }
}

/**
 * Checks that a page starts at `expected` and that every version follows the previous one by
 * exactly one. Every page of every source passes through here (the follow loop calls it), so a
 * source that skips versions can never make the indexer write past a hole. Sparse sources
 * (recorded chains) only need increasing versions. A page that says what range it accounts for
 * (`through`: a filtered Transaction Stream's processed range, which starts at `expected` because
 * the source checked it) is contiguous by range: its versions increase and stay within the range.
 * Returns the last version the page accounts for.
 */
export function checkContiguity(
  txs: readonly TransactionResponse[],
  expected: number,
  sparse: boolean,
  through?: number,
): number {
  let want = expected;
  const ranged = through !== undefined;
  for (const tx of txs) {
    const version = versionOf(tx);
    if (!Number.isSafeInteger(version) || version < 0) {
      throw new GapError(want, Number.isSafeInteger(version) ? version : -1);
    }
    if (sparse || ranged ? version < want : version !== want) throw new GapError(want, version);
    if (ranged && version > through) throw new GapError(through + 1, version);
    want = version + 1;
  }
  return ranged ? through : want - 1;
}
