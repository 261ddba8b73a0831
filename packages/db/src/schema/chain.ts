import type { Defaulted, Json, Timestamp, U64 } from './columns';

export type TokenStandard = 'v1' | 'v2';

export interface CollectionsTable {
  collection_id: string;
  token_standard: TokenStandard;
  creator_address: string;
  collection_name: string;
  description: string | null;
  uri: string | null;
  current_supply: U64 | null;
  max_supply: U64 | null;
  total_minted: U64 | null;
  owner_count: Defaulted<number>;
  lootbox_id: number | null;
  created_at: Timestamp;
  created_version: number;
  last_transaction_version: number;
}

export interface TokensTable {
  token_data_id: string;
  token_standard: TokenStandard;
  collection_id: string;
  creator_address: string | null;
  collection_name: string | null;
  token_name: string;
  description: string | null;
  token_uri: string | null;
  properties: Json<Record<string, string> | null> | null;
  supply: U64 | null;
  maximum: U64 | null;
  largest_property_version: U64 | null;
  is_soulbound: Defaulted<boolean>;
  is_burned: Defaulted<boolean>;
  lootbox_id: number | null;
  lootbox_tier: string | null;
  minted_at: Timestamp | null;
  minted_version: number | null;
  last_transaction_version: number;
}

export interface TokenAttributesTable {
  token_data_id: string;
  trait_type: string;
  collection_id: string;
  value: string;
  /** Where the trait comes from: the on-chain property map, or the off-chain document (issue #41). */
  source: Defaulted<'chain' | 'document'>;
}

export interface TokenOwnershipsTable {
  token_data_id: string;
  property_version: Defaulted<U64>;
  owner_address: string;
  collection_id: string | null;
  token_standard: TokenStandard;
  amount: U64;
  is_soulbound: Defaulted<boolean>;
  last_transaction_version: number;
}

export interface TableHandleOwnersTable {
  handle: string;
  owner_address: string;
  kind: string;
  last_transaction_version: number;
}

export interface TokenPendingClaimsTable {
  token_data_id: string;
  property_version: U64;
  from_address: string;
  to_address: string;
  collection_id: string | null;
  amount: U64;
  last_transaction_version: number;
}

export interface TokenActivitiesTable {
  transaction_version: number;
  event_index: number;
  kind: string;
  event_type: string;
  token_data_id: string;
  token_standard: TokenStandard;
  collection_id: string | null;
  property_version: Defaulted<U64>;
  from_address: string | null;
  to_address: string | null;
  amount: U64;
  transaction_timestamp: Timestamp;
}
