import type { SimState } from '../sim/state';
import { bcsStringHex, hex32, moveAddress } from '../util/hex';
import { mixInts } from '../util/prng';
import { drawTraits } from '../world/traits';
import type { CollectionSpec, World } from '../world/world';

export const APT = '0x1::aptos_coin::AptosCoin';

/**
 * Addresses, names and type strings of everything on the simulated chain, all pure functions of
 * the world and an index. Hex values are 64 digits without `0x`; `*Move` strings are the stripped
 * form Move values use.
 */
export class Entities {
  readonly mkt: string;
  readonly lootbox: string;
  readonly feeScheduleHex: string;
  readonly feeSchedule: string;
  private readonly seed: number;

  constructor(readonly world: World) {
    this.seed = world.config.seed;
    this.mkt = moveAddress(world.config.marketplaceAddress.slice(2));
    this.lootbox = moveAddress(world.config.lootboxAddress.slice(2));
    const words =
      world.config.marketplaceAddress
        .slice(2)
        .match(/.{8}/g)
        ?.map((w) => Number.parseInt(w, 16)) ?? [];
    this.feeScheduleHex = hex32(mixInts(words), 0, 0x66656573);
    this.feeSchedule = moveAddress(this.feeScheduleHex);
  }

  account(i: number): string {
    return this.world.accountMove[i] as string;
  }

  accountHex(i: number): string {
    return this.world.accountHex[i] as string;
  }

  collection(c: number): CollectionSpec {
    const spec = this.world.collections[c];
    if (spec === undefined) throw new Error(`no collection ${c}`);
    return spec;
  }

  collectionAddress(c: number): string {
    return moveAddress(this.collection(c).addressHex);
  }

  tokenHex(t: number): string {
    return hex32(this.seed, t, 0x746f6b);
  }

  /** Direct-mapped cache: a transaction names the same token several times. */
  private readonly tokenCacheKeys = new Int32Array(1024).fill(-1);
  private readonly tokenCacheValues: string[] = new Array(1024).fill('');

  tokenAddress(t: number): string {
    const slot = t & 1023;
    if (this.tokenCacheKeys[slot] === t) return this.tokenCacheValues[slot] as string;
    const value = moveAddress(this.tokenHex(t));
    this.tokenCacheKeys[slot] = t;
    this.tokenCacheValues[slot] = value;
    return value;
  }

  tokenName(collection: number, serial: number): string {
    return `${this.collection(collection).name} #${serial}`;
  }

  tokenUri(collection: number, serial: number): string {
    return `${this.collection(collection).uri}/${serial}.json`;
  }

  listingAddress(id: number): string {
    return moveAddress(hex32(this.seed, id, 0x6c697374));
  }

  containerAddress(id: number): string {
    return moveAddress(hex32(this.seed, id, 0x636f6e74));
  }

  tokenOfferAddress(id: number): string {
    return moveAddress(hex32(this.seed, id, 0x746f6666));
  }

  collectionOfferAddress(id: number): string {
    return moveAddress(hex32(this.seed, id, 0x636f6666));
  }

  /** Per-account v1 tables: TokenStore.tokens, Collections.collection_data, Collections.token_data. */
  tableHandle(account: number, which: 0 | 1 | 2): string {
    return moveAddress(hex32(this.seed, account, 0x7462 + which));
  }

  private readonly propCacheKeys = new Float64Array(4096).fill(-1);
  private readonly propCacheValues: [string, string, string][][] = new Array(4096).fill([]);

  /** Trait key/value/BCS-hex triples of a token (lootbox tokens carry their tier); cached because every transfer rewrites them. */
  properties(state: SimState, token: number): [string, string, string][] {
    const slot = token & 4095;
    // Lootbox tiers are fixed at reveal, so the (token, tier) pair identifies the value.
    const key = token * 8 + (state.tokTier[token] ?? 0) + 1;
    if (this.propCacheKeys[slot] === key) return this.propCacheValues[slot] as [string, string, string][];
    const value = this.computeProperties(state, token);
    this.propCacheKeys[slot] = key;
    this.propCacheValues[slot] = value;
    return value;
  }

  private computeProperties(state: SimState, token: number): [string, string, string][] {
    const c = state.tokColl[token] ?? 0;
    const spec = this.collection(c);
    if (spec.lootbox >= 0) {
      const tier = this.world.lootboxes[spec.lootbox]?.tiers[state.tokTier[token] ?? 0]?.name ?? 'Common';
      return [['tier', tier, bcsStringHex(tier)]];
    }
    const traits = drawTraits(this.seed, c, state.tokSerial[token] ?? 0, spec.traits);
    const out: [string, string, string][] = [];
    traits.values.forEach((v, i) => {
      // Traits the collection keeps in its off-chain document only are not on the property map.
      if (v < 0 || !spec.metadata.onChain[i]) return;
      out.push([
        spec.traits.keys[i] as string,
        spec.traits.values[i]?.[v] as string,
        spec.traits.valueHex[i]?.[v] as string,
      ]);
    });
    return out;
  }
}
