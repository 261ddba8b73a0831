import { findFixtureTransaction, readFixtureJson } from '../../src/fixtures/index';
import { type DecodedTransaction, decodeTransaction } from '../../src/index';
import { OPTIONS } from '../fixture-context';

/** Multi-transaction tests and their processing order, from the fixtures README §4. */
const SEQUENCES: Record<string, string[]> = {
  'expected/nft_aggregator/tradeport_v2/sequential_two_tradeport_v2_accept_token_delist_events_test': [
    '2296149225',
    '2296098846',
  ],
  'expected/nft_aggregator/tradeport_v2/sequential_two_tradeport_v2_accept_token_delist_events_same_token_data_id_test':
    ['2296098846', '2277018899'],
  'expected/nft_aggregator/wapal/wapal_place_offer_and_cancel_offer_test': ['2382313982', '2381810159'],
};

interface IndexEntry {
  version: string;
  expected_outputs: string[];
}

/** The transactions an expected-output folder was produced from, in processing order. */
export function inputVersions(root: string, dir: string): string[] {
  const sequence = SEQUENCES[dir];
  if (sequence) return sequence;
  const index = readFixtureJson('fixtures-index.json', root) as { transactions: IndexEntry[] };
  return index.transactions
    .filter((entry) => entry.expected_outputs.includes(dir))
    .map((entry) => entry.version);
}

export function decodeVersions(root: string, versions: string[]): DecodedTransaction[] {
  return versions.map((version) => decodeTransaction(findFixtureTransaction(version, root).rest, OPTIONS));
}
