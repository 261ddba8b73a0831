import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import type { ChainSource } from './source';
import { versionOf } from './source';

/**
 * A chain held in memory (sorted, possibly sparse versions): for tests and for replaying recorded
 * transactions without a server. Answers like the devnet's recorded mode: a start inside a gap
 * returns the next recorded versions.
 */
export function memorySource(transactions: readonly TransactionResponse[]): ChainSource {
  const sorted = [...transactions].sort((a, b) => versionOf(a) - versionOf(b));
  const last = sorted.at(-1);
  const first = sorted[0];
  return {
    sparse: true,
    async tip() {
      return { ledgerVersion: last ? versionOf(last) : 0, oldestVersion: first ? versionOf(first) : 0 };
    },
    async fetch(start, limit) {
      const from = sorted.findIndex((tx) => versionOf(tx) >= start);
      return from === -1 ? [] : sorted.slice(from, from + limit);
    },
  };
}
