import type { Defaulted, NullableTimestamp, Timestamp, U64 } from './columns';

export interface LootboxesTable {
  lootbox_id: number;
  creator_address: string;
  collection_name: string;
  collection_id: string;
  price: U64;
  coin_type: string;
  max_supply: U64;
  mint_start: Timestamp;
  mint_end: NullableTimestamp;
  paused: Defaulted<boolean>;
  minted: Defaulted<U64>;
  purchased: Defaulted<U64>;
  revenue: Defaulted<U64>;
  created_at: Timestamp;
  created_version: number;
  last_transaction_version: number;
}

export interface LootboxTiersTable {
  lootbox_id: number;
  tier_name: string;
  position: number;
  weight: U64;
  max_supply: U64;
  minted: Defaulted<U64>;
}

export interface LootboxPurchasesTable {
  transaction_version: number;
  event_index: number;
  lootbox_id: number;
  buyer: string;
  quantity: U64;
  amount_paid: U64;
  coin_type: string;
  transaction_timestamp: Timestamp;
}

/** Purchases summed per (lootbox, coin, UTC day); kept by triggers on lootbox_purchases. */
export interface LootboxRevenueDaysTable {
  lootbox_id: number;
  coin_type: string;
  /** `YYYY-MM-DD`, the purchases' UTC day. */
  day: string;
  amount: U64;
  quantity: U64;
  purchases: number;
}

export interface LootboxRevealsTable {
  transaction_version: number;
  event_index: number;
  lootbox_id: number;
  owner_address: string;
  token_data_id: string;
  tier: string;
  transaction_timestamp: Timestamp;
}
