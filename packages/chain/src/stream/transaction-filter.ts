import type { DecodeOptions } from '../decode-transaction';
import { relevantModules } from '../relevance';
import type { BooleanTransactionFilter } from './messages';

/**
 * The Transaction Stream's `transaction_filter` for what mdq decodes, from the same description as
 * the local early skip (`relevantModules`). The stream cannot filter on write-set types, so the
 * write-set half of the early skip is covered by what comes with those writes:
 * - an event of a token (0x3, 0x4), marketplace or lootbox module;
 * - a v2 token changing hands: `0x1::object::Transfer` (module event) or `TransferEvent` (the older
 *   handle event), which every object transfer emits;
 * - a user transaction calling one of those modules directly: creating a v2 collection
 *   (`0x4::aptos_token::create_collection`) writes the collection and emits no event at all.
 * A contract of another address that writes token state without any such event is the one case
 * the filter misses (docs/DECISIONS.md, "Stream filter"); the REST path and an unfiltered stream do not.
 * Everything else is skipped by the server and accounted for in each response's `processed_range`.
 */
const OBJECT_TRANSFER_EVENTS = ['Transfer', 'TransferEvent'];

export function transactionStreamFilter(options: DecodeOptions): BooleanTransactionFilter {
  const { eventAddresses } = relevantModules(options);
  const events = eventAddresses.map((address) => apiFilter({ eventFilter: { structType: { address } } }));
  const transfers = OBJECT_TRANSFER_EVENTS.map((name) =>
    apiFilter({ eventFilter: { structType: { address: '0x1', module: 'object', name } } }),
  );
  const calls = eventAddresses.map((address) =>
    apiFilter({ userTransactionFilter: { payloadFilter: { entryFunctionFilter: { address } } } }),
  );
  return { logicalOr: { filters: [...events, ...transfers, ...calls] } };
}

function apiFilter(filter: NonNullable<BooleanTransactionFilter['apiFilter']>): BooleanTransactionFilter {
  return { apiFilter: filter };
}
