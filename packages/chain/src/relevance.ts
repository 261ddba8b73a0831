import { isAddress, normalizeAddress } from './address';
import { type DecodeOptions, emptyDecoded } from './decode-transaction';
import type { DecodedTransaction } from './domain';

/*
 * Most chain transactions touch no NFT (coin transfers, swaps, governance). Before full decoding,
 * a transaction is tested for anything the decoders read: an event or a write-set resource /
 * table-item type of the token (0x3), object-token (0x4), marketplace or lootbox modules. v2 token
 * transfers qualify through the token's resources (a transfer rewrites the whole object group, and
 * the decoder needs the 0x4::token::Token resource to call an object a token). The test reads only
 * type strings; anything unusual in them (not a string, not an array) sends the transaction to the
 * full decoder, which validates it and records it as failed when it is malformed.
 */

/** Returns true when the transaction may carry facts, false when it certainly carries none. */
export type RelevanceFilter = (tx: unknown) => boolean;

const TOKEN_MODULE_ADDRESSES = ['0x3', '0x4'];

/**
 * The one description of what may carry facts: events of these addresses' modules, and write-set
 * types of the token modules. The early skip below and the Transaction Stream's server-side filter
 * (`transactionStreamFilter`) are both built from it.
 */
export interface RelevantModules {
  /** Long-form addresses whose events the decoders read (token modules, marketplaces, lootbox). */
  eventAddresses: string[];
  /** Long-form addresses whose resource / table-item types the decoders read (0x3, 0x4). */
  changeAddresses: string[];
}

export function relevantModules(options: DecodeOptions): RelevantModules {
  const eventAddresses = new Set(TOKEN_MODULE_ADDRESSES.map(normalizeAddress));
  for (const config of options.marketplaces)
    for (const type of Object.keys(config.events)) {
      const address = typeAddress(type);
      if (address !== null) eventAddresses.add(address);
    }
  if (options.lootboxAddress !== '') eventAddresses.add(normalizeAddress(options.lootboxAddress));
  return {
    eventAddresses: [...eventAddresses],
    changeAddresses: TOKEN_MODULE_ADDRESSES.map(normalizeAddress),
  };
}

export function createRelevanceFilter(options: DecodeOptions): RelevanceFilter {
  const modules = relevantModules(options);
  const eventAddresses = new Set(modules.eventAddresses);
  const changeAddresses = new Set(modules.changeAddresses);

  return (tx) => {
    if (!isObject(tx)) return true;
    // Failed transactions decode to empty facts after the envelope check: keep them on the full
    // path, they are few and cheap. Every type is tested by its events and writes (a block's
    // metadata and epilogue name only 0x1 types); types without events have none to test.
    if (tx['success'] !== true) return true;
    if (tx['type'] === 'genesis_transaction') return true;
    const events = tx['type'] === 'user_transaction' ? tx['events'] : (tx['events'] ?? []);
    const changes = tx['changes'];
    if (!Array.isArray(events) || !Array.isArray(changes)) return true;
    for (const event of events) {
      const type = isObject(event) ? event['type'] : null;
      if (typeof type !== 'string') return true;
      const address = typeAddress(type);
      if (address === null || eventAddresses.has(address)) return true;
    }
    for (const change of changes) {
      if (!isObject(change)) return true;
      for (const type of changeTypes(change)) {
        if (typeof type !== 'string') return true;
        const address = typeAddress(type);
        if (address === null || changeAddresses.has(address)) return true;
      }
    }
    return false;
  };
}

/** The facts of a transaction the filter ruled out: nothing, at its version and time. */
export function noFacts(tx: unknown): DecodedTransaction | null {
  if (!isObject(tx)) return null;
  const version = Number(tx['version']);
  const timestamp = tx['timestamp'];
  if (!Number.isSafeInteger(version) || typeof timestamp !== 'string' || !/^\d+$/.test(timestamp))
    return null;
  return emptyDecoded(version, timestamp, true);
}

/** The Move types a write-set change names (none for module writes). */
function changeTypes(change: Record<string, unknown>): unknown[] {
  switch (change['type']) {
    case 'write_resource':
      return [isObject(change['data']) ? change['data']['type'] : null];
    case 'delete_resource':
      return [change['resource']];
    case 'write_table_item':
    case 'delete_table_item': {
      const data = change['data'];
      // An item the node could not decode (data null) is skipped by the decoder as well.
      if (data === null || data === undefined) return [];
      if (!isObject(data)) return [null];
      return data['value_type'] === undefined || data['value_type'] === null
        ? [data['key_type']]
        : [data['key_type'], data['value_type']];
    }
    default:
      return [];
  }
}

/** The long-form address that defines a Move type (`0x3::token::X<…>` → `0x00…03`). */
function typeAddress(type: string): string | null {
  const end = type.indexOf('::');
  const head = end < 0 ? '' : type.slice(0, end);
  return isAddress(head) ? normalizeAddress(head) : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
