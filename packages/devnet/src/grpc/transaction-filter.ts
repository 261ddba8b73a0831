import { isAddress, normalizeAddress } from '@mdq/chain/address';
import { type BooleanTransactionFilter, kindOfRestType } from '@mdq/chain/stream';
import type { RestTransaction } from '../render/rest-types';

/**
 * The Transaction Stream's `transaction_filter`, evaluated the way aptos-core's transaction-filter
 * crate does, on the REST form of a transaction: root (success, type), user (sender, entry
 * function), event (struct type address / module / name, data substring), and / or / not.
 * Addresses compare in long form, as the service standardizes them.
 */
export function matchesFilter(filter: BooleanTransactionFilter, tx: RestTransaction): boolean {
  if (filter.logicalAnd) return (filter.logicalAnd.filters ?? []).every((f) => matchesFilter(f, tx));
  if (filter.logicalOr) return (filter.logicalOr.filters ?? []).some((f) => matchesFilter(f, tx));
  if (filter.logicalNot) return !matchesFilter(filter.logicalNot, tx);
  const api = filter.apiFilter;
  if (api?.transactionRootFilter) {
    const root = api.transactionRootFilter;
    const record = tx as Record<string, unknown>;
    if (root.success !== undefined && record['success'] !== root.success) return false;
    if (root.transactionType !== undefined) return kindOfRestType(tx) === root.transactionType;
    return true;
  }
  if (api?.userTransactionFilter) {
    const user = api.userTransactionFilter;
    const record = tx as Record<string, unknown>;
    if (record['type'] !== 'user_transaction') return false;
    if (user.sender !== undefined && !sameAddress(record['sender'], user.sender)) return false;
    const entry = user.payloadFilter?.entryFunctionFilter;
    if (entry === undefined) return true;
    const payload = record['payload'] as Record<string, unknown> | undefined;
    const inner = (payload?.['transaction_payload'] as Record<string, unknown> | undefined) ?? payload;
    const [address, module, name] = String(inner?.['function'] ?? '').split('::');
    return (
      (entry.address === undefined || sameAddress(address, entry.address)) &&
      (entry.moduleName === undefined || module === entry.moduleName) &&
      (entry.function === undefined || name === entry.function)
    );
  }
  if (api?.eventFilter) {
    const { structType, dataSubstringFilter } = api.eventFilter;
    const events = ((tx as Record<string, unknown>)['events'] as Record<string, unknown>[] | undefined) ?? [];
    return events.some((event) => {
      const type = String(event['type'] ?? '');
      const open = type.indexOf('<');
      const [address, module, name] = (open < 0 ? type : type.slice(0, open)).split('::');
      if (structType?.address !== undefined && !sameAddress(address, structType.address)) return false;
      if (structType?.module !== undefined && module !== structType.module) return false;
      if (structType?.name !== undefined && name !== structType.name) return false;
      return dataSubstringFilter === undefined || JSON.stringify(event['data']).includes(dataSubstringFilter);
    });
  }
  // An empty filter matches everything, as an absent one does.
  return true;
}

function sameAddress(a: unknown, b: string): boolean {
  return typeof a === 'string' && isAddress(a) && isAddress(b) && normalizeAddress(a) === normalizeAddress(b);
}
