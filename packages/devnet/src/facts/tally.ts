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

/** A listing's life as the simulation saw it (simulator indexes). */
export interface ListingRecord {
  token: number;
  seller: number;
  prices: { version: number; timestampUs: number; price: number }[];
  end: { version: number; timestampUs: number; kind: 'sold' | 'cancelled' } | null;
}

/** A collection offer's life as the simulation saw it (simulator indexes). */
export interface CollectionOfferRecord {
  collection: number;
  buyer: number;
  price: number;
  amount: number;
  placed: { version: number; timestampUs: number };
  expiresSecs: number;
  filled: number;
  end: { version: number; timestampUs: number; kind: 'filled' | 'cancelled' } | null;
}

/** The recorder's tallies as buildFacts reads them. */
export interface RecordedTallies {
  readonly collections: CollectionTally[];
  readonly lootboxes: LootboxTally[];
  readonly floorsAt: Partial<Record<WindowKey, (number | null)[]>>;
  readonly saleLog: SaleRecord[];
  /** Simulator token index -> the version that minted it. */
  readonly mintedAt: Map<number, number>;
  /** Simulator token index -> the version that placed or repriced its listing. */
  readonly listedAt: Map<number, number>;
  /** Offer id -> the version that placed it (token and collection offers count ids apart). */
  readonly tokenOfferPlacedAt: Map<number, number>;
  readonly collectionOfferPlacedAt: Map<number, number>;
  /** Keyed by the simulator's listing id, in placement order. */
  readonly listingLog: Map<number, ListingRecord>;
  /** Keyed by the simulator's collection-offer id, in placement order. */
  readonly collectionOfferLog: Map<number, CollectionOfferRecord>;
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
