import { bcsStringHex, u64LeHex } from '../util/hex';

/**
 * Just enough BCS to fill the raw `key` / `value` hex of token v1 table items, which the REST API
 * returns next to the decoded JSON. Field order is Move declaration order (not the JSON's).
 */
export const bcs = {
  address: (hex64: string) => hex64,
  string: bcsStringHex,
  u64: u64LeHex,
  bool: (b: boolean) => (b ? '01' : '00'),
  tokenDataId: (creatorHex: string, collection: string, name: string) =>
    creatorHex + bcsStringHex(collection) + bcsStringHex(name),
  tokenId: (creatorHex: string, collection: string, name: string, propertyVersion: number) =>
    creatorHex + bcsStringHex(collection) + bcsStringHex(name) + u64LeHex(propertyVersion),
  /** Vector length prefix; property maps here stay far below 128 entries (one ULEB128 byte). */
  length: (n: number) => {
    if (n >= 128) throw new Error('vector too long for the one-byte length prefix');
    return n.toString(16).padStart(2, '0');
  },
};
