import type { MarketKind } from '../domain';

/**
 * A marketplace adapter is data: which event types the contract emits, which standard kind each
 * one is, and where each field of a MarketActivityFact is read. Adding a marketplace means adding
 * one of these objects; the engine (engine.ts) holds the only code.
 */
export interface MarketplaceConfig {
  /** Stored in `MarketActivityFact.marketplace`, e.g. `wapal`, `tradeport_v2`. */
  name: string;
  /** Full event type without generics (`<address>::<module>::<Struct>`, any address spelling) → mapping. */
  events: Record<string, MarketEventConfig>;
}

export interface MarketEventConfig {
  kind: MarketKind;
  fields: MarketFieldSources;
  /**
   * A sale event that names no price (Bluemove's `BuyEvent`): the sale is stored at the price of
   * the listing it closes (and with its seller), as the indexer has it. Fill-listing events only.
   */
  priceFromListing?: true;
}

export type MarketField =
  | 'tokenDataId'
  | 'collectionId'
  | 'collectionName'
  | 'creatorAddress'
  | 'tokenName'
  | 'propertyVersion'
  | 'price'
  | 'tokenAmount'
  | 'coinType'
  | 'seller'
  | 'buyer'
  | 'listingId'
  | 'offerId'
  | 'commission'
  | 'royalties'
  | 'expirationTimeUs'
  | 'remainingTokenAmount';

/** Each field lists one source or several; the first that yields a value wins. */
export type MarketFieldSources = Partial<Record<MarketField, FieldSource | readonly FieldSource[]>>;

/** Converts the raw value: chain seconds → microseconds (expiration times). */
export type FieldUnit = 'seconds';

export type FieldSource =
  /** A JSON path into the event data, e.g. `$.token_metadata.token.vec[0].inner`. */
  | string
  | { path: string; unit?: FieldUnit }
  /** A fixed value, e.g. the coin type of a marketplace that only trades in APT. */
  | { const: string }
  /** A generic argument of the event type, e.g. `BuyTokenEvent<0x1::aptos_coin::AptosCoin>` → 0. */
  | { eventTypeArg: number }
  /** Token v1 data id hashed from creator / collection / name read at these paths. */
  | { v1TokenDataId: { creator: string; collection: string; name: string } }
  /** Token v1 collection id hashed from creator / collection name read at these paths. */
  | { v1CollectionId: { creator: string; collection: string } }
  /**
   * A resource in the same transaction's write set, at the object address read from the event at
   * `at` (e.g. the offer object), field `path` inside the resource. `type` ignores generics.
   */
  | { resource: string; at: string; path: string; unit?: FieldUnit }
  /** `value` when the object whose address is read at `at` was deleted in this transaction. */
  | { ifDeleted: string; value: string }
  /** The transaction's sender (a venue whose cancel event does not name the seller). */
  | { transactionSender: true };
