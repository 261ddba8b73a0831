import { createHash } from 'node:crypto';
import { normalizeAddress } from './address';

/**
 * Token v1 ids as the official Aptos indexer computes them, so ids match the explorer:
 * sha256 of `creator::collection::name` (creator in long form), hex, `0x`-prefixed.
 */
export function v1TokenDataId(creator: string, collection: string, name: string): string {
  return sha256Id(`${normalizeAddress(creator)}::${collection}::${name}`);
}

export function v1CollectionId(creator: string, collection: string): string {
  return sha256Id(`${normalizeAddress(creator)}::${collection}`);
}

function sha256Id(input: string): string {
  return `0x${createHash('sha256').update(input, 'utf8').digest('hex')}`;
}
