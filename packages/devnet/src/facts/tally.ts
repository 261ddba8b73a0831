import type { WashLabel } from '../sim/plan';
import type { SimState } from '../sim/state';
import type { WindowKey } from './types';

/*
 * What the facts recorder keeps while the initial chain is simulated, apart from the recorder
 * itself: buildFacts reads these and the recorder writes them, and neither needs the other.
 */

export interface CollectionTally {
  sales: number[];
  volume: number[];
  buyers: Set<number>[];
  tokenOffers: { placed: number; cancelled: number; filled: number };
  collectionOffers: { placed: number; cancelled: number; filled: number };
}

export interface LootboxTally {
  purchases: number;
  revenue: number[];
}

/** A sale as the simulation saw it (simulator indexes; the facts turn them into addresses). */
export interface SaleRecord {
  version: number;
  timestampUs: number;
  collection: number;
  token: number;
  seller: number;
  buyer: number;
  price: number;
  wash: WashLabel | null;
}

/** The recorder's tallies as buildFacts reads them. */
export interface RecordedTallies {
  readonly collections: CollectionTally[];
  readonly lootboxes: LootboxTally[];
  readonly floorsAt: Partial<Record<WindowKey, (number | null)[]>>;
  readonly saleLog: SaleRecord[];
}

/** Lowest active listing price per collection (null without listings). */
export function floors(s: SimState): (number | null)[] {
  return s.collListings.map((tokens) => {
    let min: number | null = null;
    for (const t of tokens) {
      const p = s.tokPrice[t] ?? 0;
      if (min === null || p < min) min = p;
    }
    return min;
  });
}
