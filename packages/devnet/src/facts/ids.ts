import { createHash } from 'node:crypto';
import type { SimState } from '../sim/state';
import { hex32 } from '../util/hex';
import type { World } from '../world/world';

const sha = (text: string) => `0x${createHash('sha256').update(text).digest('hex')}`;

/**
 * Collection id as the official Aptos indexer defines it (docs/DECISIONS.md, "Identity"): object
 * address (v2) or sha256(creator::collection) (v1).
 */
export function collectionId(world: World, c: number): string {
  const spec = world.collections[c];
  if (spec === undefined) throw new Error(`no collection ${c}`);
  if (spec.standard === 'v2') return `0x${spec.addressHex}`;
  return sha(`0x${world.accountHex[spec.creator]}::${spec.name}`);
}

/** Token id: object address (v2) or token data id sha256(creator::collection::name) (v1). */
export function tokenId(world: World, state: SimState, t: number): string {
  const c = state.tokColl[t] ?? 0;
  const spec = world.collections[c];
  if (spec === undefined) throw new Error(`no collection ${c}`);
  if (spec.standard === 'v2') return `0x${hex32(world.config.seed, t, 0x746f6b)}`;
  return sha(`0x${world.accountHex[spec.creator]}::${spec.name}::${spec.name} #${state.tokSerial[t]}`);
}
