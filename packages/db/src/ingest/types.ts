import type { Selectable } from 'kysely';
import type {
  CollectionOffersTable,
  CollectionsTable,
  ListingsTable,
  LootboxesTable,
  LootboxPurchasesTable,
  LootboxRevealsTable,
  LootboxTiersTable,
  MarketplaceActivitiesTable,
  TableHandleOwnersTable,
  TokenActivitiesTable,
  TokenOffersTable,
  TokenOwnershipsTable,
  TokenPendingClaimsTable,
  TokensTable,
} from '../schema';

/** A timestamp column as the indexer hands it over: an ISO string (a JS Date would cut microseconds to ms). */
type Iso<V> = V extends Date ? string : V;

/**
 * The row the indexer hands to writeBatch for a table, derived from the table in `../schema` (the
 * one description of its columns): every column, u64 as strings, timestamps as ISO strings. A
 * column added to the schema is required here too, so the mapping that builds the row fails the
 * typecheck until it fills the column. Columns the indexer never writes (derived by the worker, or
 * database defaults) are left out by name below.
 */
export type IngestRow<Table> = { [K in keyof Selectable<Table>]: Iso<Selectable<Table>[K]> };

/** Derived after the batch (owner counts by delta, lootbox links by the lootbox writer). */
export type CollectionRow = Omit<IngestRow<CollectionsTable>, 'owner_count' | 'lootbox_id'>;

/** A transaction that rewrote only a collection's supply resource (a mint or burn). */
export type CollectionSupplyRow = Pick<
  CollectionRow,
  'collection_id' | 'current_supply' | 'max_supply' | 'total_minted' | 'last_transaction_version'
>;

/**
 * A collection known only from an event that names it (history started after its creation):
 * created where no row exists, never overwriting one. created_* say when it was first seen.
 */
export type CollectionPlaceholderRow = Pick<
  CollectionRow,
  | 'collection_id'
  | 'token_standard'
  | 'creator_address'
  | 'collection_name'
  | 'created_at'
  | 'created_version'
  | 'last_transaction_version'
>;

/** `is_burned` comes from burnedTokens, the lootbox columns from reveals; soulbound null: not known yet. */
export type TokenRow = Omit<
  IngestRow<TokensTable>,
  'is_burned' | 'lootbox_id' | 'lootbox_tier' | 'is_soulbound'
> & {
  is_soulbound: boolean | null;
};

/** A token known only from an event that names it: created where missing, else fills its names. */
export type TokenPlaceholderRow = Pick<
  TokenRow,
  | 'token_data_id'
  | 'token_standard'
  | 'collection_id'
  | 'creator_address'
  | 'collection_name'
  | 'token_name'
  | 'last_transaction_version'
>;

/** A v1 token held in a table whose owner is resolved at write time (`table_handle`, owner null until then). */
export type OwnershipRow = Omit<IngestRow<TokenOwnershipsTable>, 'owner_address' | 'is_soulbound'> & {
  owner_address: string | null;
  table_handle: string | null;
  is_soulbound: boolean | null;
};

export type TableHandleRow = IngestRow<TableHandleOwnersTable>;

export type PendingClaimRow = IngestRow<TokenPendingClaimsTable>;

export type TokenActivityRow = IngestRow<TokenActivitiesTable>;

/** Wash flags are set after the write (wash-flags.ts), from the stored history. */
export type MarketActivityRow = Omit<IngestRow<MarketplaceActivitiesTable>, 'wash_flags'>;

/** The state of one listing after the batch (its events collapsed in chain order). */
export type ListingRow = IngestRow<ListingsTable>;

export type TokenOfferRow = IngestRow<TokenOffersTable>;

export type CollectionOfferRow = Omit<
  IngestRow<CollectionOffersTable>,
  'token_amount' | 'remaining_amount'
> & {
  /** Null when the batch only shows a fill or a cancel: keep what the place event stored. */
  token_amount: string | null;
  /** Absolute remaining amount when the chain shows it, else null (derived from counted fills). */
  remaining_amount: string | null;
};

/** Counters (minted, purchased, revenue) are kept by the lootbox writer; `paused` by updates. */
export type LootboxRow = Omit<IngestRow<LootboxesTable>, 'paused' | 'minted' | 'purchased' | 'revenue'>;

export type LootboxTierRow = Omit<IngestRow<LootboxTiersTable>, 'minted'>;

export type LootboxUpdateRow = Pick<
  IngestRow<LootboxesTable>,
  'lootbox_id' | 'price' | 'mint_start' | 'mint_end' | 'paused' | 'last_transaction_version'
>;

export type LootboxPurchaseRow = IngestRow<LootboxPurchasesTable>;

export type LootboxRevealRow = IngestRow<LootboxRevealsTable>;

/** The payload is any JSON value; the writer stores its text (`failed_at` is the database's clock). */
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
  collectionPlaceholders: CollectionPlaceholderRow[];
  tokens: TokenRow[];
  tokenPlaceholders: TokenPlaceholderRow[];
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
  /** v1 token data a burn event named: burned once no positive balance of it remains (see burns.ts). */
  v1BurnedUnlessHeld: { token_data_id: string; last_transaction_version: number }[];
  /** Sales whose event named no price: stored at their listing's price and seller (market.ts). */
  salesAtListedPrice: { transaction_version: number; event_index: number }[];
  failed: FailedTransactionRow[];
}

export interface IngestResult {
  rowsWritten: number;
  /** Ownership facts whose v1 table handle no account was ever seen to own. */
  unresolvedOwnerships: number;
  /** Collections whose derived data (floor, owners, rankings, rarity) may have changed. */
  touchedCollections: string[];
  touchedLootboxes: number[];
  /** Wall milliseconds per write step (tables, bookkeeping, checkpoint, commit) of this batch. */
  steps: Record<string, number>;
}

export function emptyBatch(name: string, lastVersion: number): IngestBatch {
  return {
    checkpoint: { name, lastVersion, lastTimestamp: null },
    collections: [],
    collectionSupplies: [],
    collectionPlaceholders: [],
    tokens: [],
    tokenPlaceholders: [],
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
    v1BurnedUnlessHeld: [],
    salesAtListedPrice: [],
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
  'collection_floor_changes',
  'token_offers',
  'collection_offers',
  'lootboxes',
  'lootbox_tiers',
  'lootbox_purchases',
  'lootbox_reveals',
  'failed_transactions',
] as const;
