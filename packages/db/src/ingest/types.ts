/**
 * Row shapes the indexer hands to writeBatch: column names as in the tables, u64 as strings,
 * timestamps as ISO strings (microsecond precision survives; a JS Date would cut it to ms).
 */
export interface CollectionRow {
  collection_id: string;
  token_standard: 'v1' | 'v2';
  creator_address: string;
  collection_name: string;
  description: string | null;
  uri: string | null;
  current_supply: string | null;
  max_supply: string | null;
  total_minted: string | null;
  created_at: string;
  created_version: number;
  last_transaction_version: number;
}

/** A transaction that rewrote only a collection's supply resource (a mint or burn). */
export interface CollectionSupplyRow {
  collection_id: string;
  current_supply: string | null;
  max_supply: string | null;
  total_minted: string | null;
  last_transaction_version: number;
}

export interface TokenRow {
  token_data_id: string;
  token_standard: 'v1' | 'v2';
  collection_id: string;
  creator_address: string | null;
  collection_name: string | null;
  token_name: string;
  description: string | null;
  token_uri: string | null;
  properties: Record<string, string> | null;
  supply: string | null;
  maximum: string | null;
  largest_property_version: string | null;
  is_soulbound: boolean | null;
  minted_at: string | null;
  minted_version: number | null;
  last_transaction_version: number;
}

export interface OwnershipRow {
  token_data_id: string;
  property_version: string;
  owner_address: string | null;
  table_handle: string | null;
  collection_id: string | null;
  token_standard: 'v1' | 'v2';
  amount: string;
  is_soulbound: boolean | null;
  last_transaction_version: number;
}

export interface TableHandleRow {
  handle: string;
  owner_address: string;
  kind: string;
  last_transaction_version: number;
}

export interface PendingClaimRow {
  token_data_id: string;
  property_version: string;
  from_address: string;
  to_address: string;
  collection_id: string | null;
  amount: string;
  last_transaction_version: number;
}

export interface TokenActivityRow {
  transaction_version: number;
  event_index: number;
  kind: string;
  event_type: string;
  token_data_id: string;
  token_standard: 'v1' | 'v2';
  collection_id: string | null;
  property_version: string;
  from_address: string | null;
  to_address: string | null;
  amount: string;
  transaction_timestamp: string;
}

export interface MarketActivityRow {
  transaction_version: number;
  event_index: number;
  kind: string;
  marketplace: string;
  contract_address: string;
  raw_event_type: string;
  token_data_id: string | null;
  token_standard: string | null;
  property_version: string | null;
  collection_id: string | null;
  collection_name: string | null;
  creator_address: string | null;
  token_name: string | null;
  price: string;
  token_amount: string;
  coin_type: string | null;
  seller: string | null;
  buyer: string | null;
  listing_id: string | null;
  offer_id: string | null;
  commission: string | null;
  royalties: string | null;
  transaction_timestamp: string;
  seller_funded: boolean;
}

/** The state of one listing after the batch (its events collapsed in chain order). */
export interface ListingRow {
  marketplace: string;
  listing_id: string;
  contract_address: string;
  token_data_id: string;
  token_standard: string | null;
  property_version: string | null;
  collection_id: string | null;
  collection_name: string | null;
  creator_address: string | null;
  token_name: string | null;
  seller: string | null;
  buyer: string | null;
  price: string;
  token_amount: string;
  coin_type: string | null;
  status: 'active' | 'sold' | 'cancelled';
  listed_at: string | null;
  listed_version: number | null;
  closed_at: string | null;
  last_transaction_version: number;
}

export interface TokenOfferRow {
  marketplace: string;
  offer_id: string;
  contract_address: string;
  token_data_id: string;
  token_standard: string | null;
  property_version: string | null;
  collection_id: string | null;
  collection_name: string | null;
  creator_address: string | null;
  token_name: string | null;
  buyer: string;
  seller: string | null;
  price: string;
  token_amount: string;
  coin_type: string | null;
  status: 'active' | 'filled' | 'cancelled';
  expiration_time: string | null;
  created_at: string | null;
  created_version: number | null;
  last_transaction_version: number;
}

export interface CollectionOfferRow {
  marketplace: string;
  offer_id: string;
  contract_address: string;
  collection_id: string | null;
  collection_name: string | null;
  creator_address: string | null;
  buyer: string;
  price: string;
  /** Null when the batch only shows a fill or a cancel: keep what the place event stored. */
  token_amount: string | null;
  /** Absolute remaining amount when the chain shows it, else null (derived from counted fills). */
  remaining_amount: string | null;
  coin_type: string | null;
  status: 'active' | 'filled' | 'cancelled';
  expiration_time: string | null;
  created_at: string | null;
  created_version: number | null;
  last_transaction_version: number;
}

export interface LootboxRow {
  lootbox_id: number;
  creator_address: string;
  collection_name: string;
  collection_id: string;
  price: string;
  coin_type: string;
  max_supply: string;
  mint_start: string;
  mint_end: string | null;
  created_at: string;
  created_version: number;
  last_transaction_version: number;
}

export interface LootboxTierRow {
  lootbox_id: number;
  tier_name: string;
  position: number;
  weight: string;
  max_supply: string;
}

export interface LootboxUpdateRow {
  lootbox_id: number;
  price: string;
  mint_start: string;
  mint_end: string | null;
  paused: boolean;
  last_transaction_version: number;
}

export interface LootboxPurchaseRow {
  transaction_version: number;
  event_index: number;
  lootbox_id: number;
  buyer: string;
  quantity: string;
  amount_paid: string;
  coin_type: string;
  transaction_timestamp: string;
}

export interface LootboxRevealRow {
  transaction_version: number;
  event_index: number;
  lootbox_id: number;
  owner_address: string;
  token_data_id: string;
  tier: string;
  transaction_timestamp: string;
}

export interface FailedTransactionRow {
  transaction_version: number;
  reason: string;
  payload: unknown;
}

export interface IngestBatch {
  checkpoint: {
    name: string;
    lastVersion: number;
    lastTimestamp: string | null;
    /**
     * The checkpoint this batch continues from (null: none yet). When set, the write fails with
     * CheckpointMovedError unless the stored checkpoint still says exactly that: a batch is never
     * written on top of a checkpoint that another writer moved or that does not end where it starts.
     */
    previous?: number | null;
  };
  collections: CollectionRow[];
  collectionSupplies: CollectionSupplyRow[];
  tokens: TokenRow[];
  ownerships: OwnershipRow[];
  tableHandles: TableHandleRow[];
  pendingClaims: PendingClaimRow[];
  tokenActivities: TokenActivityRow[];
  marketActivities: MarketActivityRow[];
  listings: ListingRow[];
  tokenOffers: TokenOfferRow[];
  collectionOffers: CollectionOfferRow[];
  lootboxes: LootboxRow[];
  lootboxTiers: LootboxTierRow[];
  lootboxUpdates: LootboxUpdateRow[];
  lootboxPurchases: LootboxPurchaseRow[];
  lootboxReveals: LootboxRevealRow[];
  burnedTokens: { token_data_id: string; last_transaction_version: number }[];
  failed: FailedTransactionRow[];
}

export interface IngestResult {
  rowsWritten: number;
  /** Ownership facts whose v1 table handle no account was ever seen to own. */
  unresolvedOwnerships: number;
  /** Collections whose derived data (floor, owners, rankings, rarity) may have changed. */
  touchedCollections: string[];
  touchedLootboxes: number[];
}

export function emptyBatch(name: string, lastVersion: number): IngestBatch {
  return {
    checkpoint: { name, lastVersion, lastTimestamp: null },
    collections: [],
    collectionSupplies: [],
    tokens: [],
    ownerships: [],
    tableHandles: [],
    pendingClaims: [],
    tokenActivities: [],
    marketActivities: [],
    listings: [],
    tokenOffers: [],
    collectionOffers: [],
    lootboxes: [],
    lootboxTiers: [],
    lootboxUpdates: [],
    lootboxPurchases: [],
    lootboxReveals: [],
    burnedTokens: [],
    failed: [],
  };
}

/** Every table the indexer writes chain-derived state to (checkpoints aside). */
export const CHAIN_STATE_TABLES = [
  'collections',
  'tokens',
  'token_attributes',
  'token_ownerships',
  'table_handle_owners',
  'token_pending_claims',
  'token_activities',
  'marketplace_activities',
  'listings',
  'token_offers',
  'collection_offers',
  'lootboxes',
  'lootbox_tiers',
  'lootbox_purchases',
  'lootbox_reveals',
  'failed_transactions',
] as const;
