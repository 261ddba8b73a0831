import type {
  CollectionsTable,
  TableHandleOwnersTable,
  TokenActivitiesTable,
  TokenAttributesTable,
  TokenOwnershipsTable,
  TokenPendingClaimsTable,
  TokensTable,
} from './chain';
import type {
  ActiveListingCountsTable,
  ActiveListingGramsTable,
  CollectionHoldingsTable,
  CollectionRankingChangesTable,
  CollectionRarityMarksTable,
  CollectionRarityTotalsTable,
  CollectionSnapshotsTable,
  CollectionTraitTotalsTable,
  CollectionUriCacheTable,
  RankingRunsTable,
  RankingSnapshotsTable,
  SocialSignalsTable,
  TokenNameStemsTable,
  TokenRarityTable,
  TraitValueCountsTable,
  TraitValueFloorsTable,
  UserInventorySnapshotsTable,
} from './derived';
import type {
  LootboxesTable,
  LootboxPurchasesTable,
  LootboxRevealsTable,
  LootboxRevenueDaysTable,
  LootboxTiersTable,
} from './lootbox';
import type {
  CollectionFloorChangesTable,
  CollectionOffersTable,
  ListingsTable,
  MarketplaceActivitiesTable,
  TokenOffersTable,
} from './market';
import type { MetadataDocumentsTable, MetadataPendingTable } from './metadata';
import type {
  ApiKeysTable,
  ChainTipTable,
  CollectionChangeOutboxTable,
  ExportUsageTable,
  FailedTransactionsTable,
  IndexerCheckpointsTable,
  MediaRendersTable,
} from './ops';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from './webhooks';

/** The whole database as Kysely sees it; table names match the migrations. */
export interface Database {
  collections: CollectionsTable;
  tokens: TokensTable;
  token_attributes: TokenAttributesTable;
  token_ownerships: TokenOwnershipsTable;
  table_handle_owners: TableHandleOwnersTable;
  token_pending_claims: TokenPendingClaimsTable;
  token_activities: TokenActivitiesTable;
  marketplace_activities: MarketplaceActivitiesTable;
  listings: ListingsTable;
  /** The listings whose status is 'active', kept by triggers on listings (same columns). */
  active_listings: ListingsTable;
  active_listing_counts: ActiveListingCountsTable;
  active_listing_grams: ActiveListingGramsTable;
  collection_floor_changes: CollectionFloorChangesTable;
  token_offers: TokenOffersTable;
  collection_offers: CollectionOffersTable;
  lootboxes: LootboxesTable;
  lootbox_tiers: LootboxTiersTable;
  lootbox_purchases: LootboxPurchasesTable;
  lootbox_revenue_days: LootboxRevenueDaysTable;
  lootbox_reveals: LootboxRevealsTable;
  collection_snapshots: CollectionSnapshotsTable;
  ranking_snapshots: RankingSnapshotsTable;
  ranking_runs: RankingRunsTable;
  collection_ranking_changes: CollectionRankingChangesTable;
  social_signals: SocialSignalsTable;
  token_rarity: TokenRarityTable;
  trait_value_counts: TraitValueCountsTable;
  token_name_stems: TokenNameStemsTable;
  collection_trait_totals: CollectionTraitTotalsTable;
  collection_rarity_marks: CollectionRarityMarksTable;
  collection_rarity_totals: CollectionRarityTotalsTable;
  collection_holdings: CollectionHoldingsTable;
  trait_value_floors: TraitValueFloorsTable;
  user_inventory_snapshots: UserInventorySnapshotsTable;
  collection_uri_cache: CollectionUriCacheTable;
  metadata_documents: MetadataDocumentsTable;
  metadata_pending: MetadataPendingTable;
  api_keys: ApiKeysTable;
  export_usage: ExportUsageTable;
  media_renders: MediaRendersTable;
  indexer_checkpoints: IndexerCheckpointsTable;
  chain_tip: ChainTipTable;
  collection_change_outbox: CollectionChangeOutboxTable;
  failed_transactions: FailedTransactionsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

export type * from './chain';
export type * from './columns';
export type * from './derived';
export type * from './lootbox';
export type * from './market';
export type * from './metadata';
export type * from './ops';
export type * from './webhooks';
