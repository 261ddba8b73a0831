import type { Defaulted, NullableTimestamp, Timestamp, U64 } from './columns';

export type ListingStatus = 'active' | 'sold' | 'cancelled';
export type OfferStatus = 'active' | 'filled' | 'cancelled';

export interface MarketplaceActivitiesTable {
  transaction_version: number;
  event_index: number;
  kind: string;
  marketplace: string;
  contract_address: string;
  raw_event_type: string;
  token_data_id: string | null;
  token_standard: string | null;
  property_version: U64 | null;
  collection_id: string | null;
  collection_name: string | null;
  creator_address: string | null;
  token_name: string | null;
  price: U64;
  token_amount: U64;
  coin_type: string | null;
  seller: string | null;
  buyer: string | null;
  listing_id: string | null;
  offer_id: string | null;
  commission: U64 | null;
  royalties: U64 | null;
  transaction_timestamp: Timestamp;
  /** The seller paid the buyer at least the price in the same transaction (decoded coin moves). */
  seller_funded: Defaulted<boolean>;
  /** Wash-trade reasons (WASH_RULES); empty for a clean sale or a non-sale. */
  wash_flags: Defaulted<string[]>;
}

export interface ListingsTable {
  marketplace: string;
  listing_id: string;
  contract_address: string;
  token_data_id: string;
  token_standard: string | null;
  property_version: U64 | null;
  collection_id: string | null;
  collection_name: string | null;
  creator_address: string | null;
  token_name: string | null;
  seller: string | null;
  buyer: string | null;
  price: U64;
  token_amount: Defaulted<U64>;
  coin_type: string | null;
  status: ListingStatus;
  listed_at: NullableTimestamp;
  listed_version: number | null;
  closed_at: NullableTimestamp;
  last_transaction_version: number;
}

/** A collection's floor moved (the feed's `floor_changed`); written by the indexer with the listings. */
export interface CollectionFloorChangesTable {
  transaction_version: number;
  /** The feed's index: FLOOR_EVENT_OFFSET + the collection's last listing event of the version. */
  event_index: number;
  collection_id: string;
  /** The lowest active native-coin listing after the version; null when none is left. */
  floor_price: U64 | null;
  previous_floor_price: U64 | null;
  transaction_timestamp: Date;
}

export interface TokenOffersTable {
  marketplace: string;
  offer_id: string;
  contract_address: string;
  token_data_id: string;
  token_standard: string | null;
  property_version: U64 | null;
  collection_id: string | null;
  collection_name: string | null;
  creator_address: string | null;
  token_name: string | null;
  buyer: string;
  seller: string | null;
  price: U64;
  token_amount: Defaulted<U64>;
  coin_type: string | null;
  status: OfferStatus;
  expiration_time: NullableTimestamp;
  created_at: NullableTimestamp;
  created_version: number | null;
  last_transaction_version: number;
}

export interface CollectionOffersTable {
  marketplace: string;
  offer_id: string;
  contract_address: string;
  collection_id: string | null;
  collection_name: string | null;
  creator_address: string | null;
  buyer: string;
  price: U64;
  token_amount: U64;
  remaining_amount: U64;
  coin_type: string | null;
  status: OfferStatus;
  expiration_time: NullableTimestamp;
  created_at: NullableTimestamp;
  created_version: number | null;
  last_transaction_version: number;
}

export type { Timestamp };
