/**
 * Aptos addresses appear in three spellings on chain (leading zeros stripped inside Move values,
 * AIP-40 short form for special addresses, full 64 hex elsewhere), and people type them in mixed
 * case. Everything mdq stores and compares is the long form, so every boundary (API parameters,
 * CLI flags, environment, signal files, decoded chain values) normalises with this one function.
 * This file imports nothing, so that `@mdq/config` can load it (`@mdq/chain/address`) cheaply.
 */

/** An address as accepted at a boundary: `0x` (or `0X`) and 1 to 64 hex digits. */
export const ADDRESS_PATTERN = '^0[xX][0-9a-fA-F]{1,64}$';
const HEX = new RegExp(ADDRESS_PATTERN);

export function isAddress(value: string): boolean {
  return HEX.test(value);
}

/** Long form: `0x` + 64 lowercase hex digits. Throws on anything that is not an address. */
export function normalizeAddress(value: string): string {
  if (!HEX.test(value)) throw new Error(`not an address: ${value}`);
  return `0x${value.slice(2).toLowerCase().padStart(64, '0')}`;
}

/** The service's own contracts on the local devnet (and the defaults of MARKETPLACE_ADDRESS / LOOTBOX_ADDRESS). */
export const DEFAULT_MARKETPLACE_ADDRESS = normalizeAddress('0x6d71');
export const DEFAULT_LOOTBOX_ADDRESS = normalizeAddress('0x6d72');
