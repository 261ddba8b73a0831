import type { DecodeOptions } from '../decode-transaction';
import { relevantModules } from '../relevance';
import type { BooleanTransactionFilter } from './messages';

/**
 * The Transaction Stream's `transaction_filter` for what mdq decodes, from the same description as
 * the local early skip (`relevantModules`): a transaction is sent when one of its events belongs to
 * a token (0x3, 0x4), marketplace or lootbox module. The stream cannot filter on write-set types,
 * so the write-set half of the early skip becomes the events that go with those writes: a v2 token
 * changes hands with `0x1::object::Transfer` (module event) or `TransferEvent` (the older handle
 * event), which the 0x4 writes of a transfer always come with. Everything else is skipped by the
 * server and accounted for in each response's `processed_range`.
 */
const OBJECT_TRANSFER_EVENTS = ['Transfer', 'TransferEvent'];

export function transactionStreamFilter(options: DecodeOptions): BooleanTransactionFilter {
  const { eventAddresses } = relevantModules(options);
  const byAddress = eventAddresses.map((address) => eventFilter({ address }));
  const transfers = OBJECT_TRANSFER_EVENTS.map((name) =>
    eventFilter({ address: '0x1', module: 'object', name }),
  );
  return { logicalOr: { filters: [...byAddress, ...transfers] } };
}

function eventFilter(structType: {
  address: string;
  module?: string;
  name?: string;
}): BooleanTransactionFilter {
  return { apiFilter: { eventFilter: { structType } } };
}
