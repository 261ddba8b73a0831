import type { Kysely } from 'kysely';
import { type Migration, type MigrationResultSet, Migrator } from 'kysely/migration';
import * as initial from './migrations/2026-11-22T0000_initial';
import * as workerIndexes from './migrations/2026-11-22T0200_worker_indexes';
import * as apiIndexes from './migrations/2026-11-22T0300_api_indexes';
import * as chainTip from './migrations/2026-11-23T0900_chain_tip';
import * as readpathVersions from './migrations/2026-11-23T1000_readpath_versions';
import * as changeOutbox from './migrations/2026-11-23T1000_reliab_change_outbox';
import * as feedWebhooks from './migrations/2026-11-23T1030_feed_webhooks';
import * as analyticsWashFlags from './migrations/2026-11-23T1100_analytics_wash_flags';
import * as exportQuota from './migrations/2026-11-23T1100_export_quota';
import * as feedFloorChanges from './migrations/2026-11-24T1220_feed_floor_changes';
import * as mediaRenders from './migrations/2026-11-24T1230_media_renders';
import * as readpathBalancePage from './migrations/2026-11-24T1250_readpath_balance_page';
import * as feedRankingChanges from './migrations/2026-11-25T1000_feed_ranking_changes';
import * as readpathReadIndexes from './migrations/2026-11-25T1200_readpath_read_indexes';
import * as traitsKeptCounts from './migrations/2026-11-26T1000_traits_kept_counts';
import * as readpathCollectionPages from './migrations/2026-11-26T1100_readpath_collection_pages';
import * as searchOrderedReads from './migrations/2026-11-27T1000_search_ordered_reads';
import * as lootboxRevenueDays from './migrations/2026-11-27T1400_lead_lootbox_revenue_days';
import * as searchNameStems from './migrations/2026-11-28T1300_search_name_stems';
import * as workerFloorReads from './migrations/2026-11-29T1000_worker_floor_reads';
import * as ingestOwnershipIndexes from './migrations/2026-11-29T1100_ingest_ownership_indexes';
import * as apiNaturalNameOrder from './migrations/2026-11-30T1000_api_natural_name_order';
import * as metadataDocuments from './migrations/2026-11-30T1000_metadata_documents';
import * as publishableKeys from './migrations/2026-11-30T1000_publishable_keys';
import * as cacheCollectionVersions from './migrations/2026-12-01T1000_cache_collection_versions';
import * as readVersionNotify from './migrations/2026-12-02T1000_read_version_notify';
import * as handleOwnerIndex from './migrations/2026-12-03T1000_handle_owner_index';
import * as tokensLootboxBurned from './migrations/2026-12-03T1100_tokens_lootbox_burned';
import * as analyticsReads from './migrations/2026-12-04T1000_analytics_reads';
import * as liveTokenCountsVersioned from './migrations/2026-12-05T1000_live_token_counts_versioned';
import * as salesCollectionVersions from './migrations/2026-12-06T1000_sales_collection_versions';
import * as walletVersions from './migrations/2026-12-07T1000_wallet_versions';
import * as analyticsCollectionVersions from './migrations/2026-12-08T1000_analytics_collection_versions';
import * as documentsCollectionVersions from './migrations/2026-12-08T1100_documents_collection_versions';
import * as tokenRowsCollectionVersions from './migrations/2026-12-08T1200_token_rows_collection_versions';
import * as readVersionNotifyTables from './migrations/2026-12-09T1000_read_version_notify_tables';
import * as listingsActiveNames from './migrations/2026-12-09T1100_listings_active_names';
import * as readVersionNotifyScopes from './migrations/2026-12-10T1000_read_version_notify_scopes';
import * as metadataPending from './migrations/2026-12-10T1100_metadata_pending';
import * as burnsByCollection from './migrations/2026-12-11T1000_burns_by_collection';
import * as activeListings from './migrations/2026-12-12T1000_active_listings';
import * as readVersionsOfRows from './migrations/2026-12-13T1000_read_versions_of_rows';
import * as rankingCollectionIdentity from './migrations/2026-12-13T1100_ranking_collection_identity';
import * as lootboxVersions from './migrations/2026-12-14T1000_lootbox_versions';
import * as collectionIdentityVersions from './migrations/2026-12-14T1100_collection_identity_versions';
import * as walletHoldingsVersions from './migrations/2026-12-15T1000_wallet_holdings_versions';
import * as rarityTotals from './migrations/2026-12-16T1000_rarity_totals';
import * as collectionHoldings from './migrations/2026-12-17T1000_collection_holdings';
import * as collectionHoldingsOneCount from './migrations/2026-12-18T1000_collection_holdings_one_count';
import * as traitValueFloors from './migrations/2026-12-19T1000_trait_value_floors';
import * as activeListingGrams from './migrations/2026-12-20T1000_active_listing_grams';
import * as checkpointNotify from './migrations/2026-12-21T1000_checkpoint_notify';
import * as traitValueFloorsListedOnce from './migrations/2026-12-22T1000_trait_value_floors_listed_once';
import * as listingSearchCollectionFirst from './migrations/2026-12-22T1100_listing_search_collection_first';

/**
 * Every migration, keyed by its file name (without `.ts`), in the order they run (Kysely orders by
 * name). Frozen: a migration is never edited once landed; a change is a new file with a later stamp.
 * The database functions they apply are files of src/functions/ (README, "Database functions").
 * Static imports, not a folder read at run time: the release bundles this module into one file.
 * packages/db/test/migrations.test.ts holds the list equal to the folder, in order, stamps unique.
 */
const migrations: Record<string, Migration> = {
  '2026-11-22T0000_initial': initial,
  '2026-11-22T0200_worker_indexes': workerIndexes,
  '2026-11-22T0300_api_indexes': apiIndexes,
  '2026-11-23T0900_chain_tip': chainTip,
  '2026-11-23T1000_readpath_versions': readpathVersions,
  '2026-11-23T1000_reliab_change_outbox': changeOutbox,
  '2026-11-23T1030_feed_webhooks': feedWebhooks,
  '2026-11-23T1100_analytics_wash_flags': analyticsWashFlags,
  '2026-11-23T1100_export_quota': exportQuota,
  '2026-11-24T1220_feed_floor_changes': feedFloorChanges,
  '2026-11-24T1230_media_renders': mediaRenders,
  '2026-11-24T1250_readpath_balance_page': readpathBalancePage,
  '2026-11-25T1000_feed_ranking_changes': feedRankingChanges,
  '2026-11-25T1200_readpath_read_indexes': readpathReadIndexes,
  '2026-11-26T1000_traits_kept_counts': traitsKeptCounts,
  '2026-11-26T1100_readpath_collection_pages': readpathCollectionPages,
  '2026-11-27T1000_search_ordered_reads': searchOrderedReads,
  '2026-11-27T1400_lead_lootbox_revenue_days': lootboxRevenueDays,
  '2026-11-28T1300_search_name_stems': searchNameStems,
  '2026-11-29T1000_worker_floor_reads': workerFloorReads,
  '2026-11-29T1100_ingest_ownership_indexes': ingestOwnershipIndexes,
  '2026-11-30T1000_api_natural_name_order': apiNaturalNameOrder,
  '2026-11-30T1000_metadata_documents': metadataDocuments,
  '2026-11-30T1000_publishable_keys': publishableKeys,
  '2026-12-01T1000_cache_collection_versions': cacheCollectionVersions,
  '2026-12-02T1000_read_version_notify': readVersionNotify,
  '2026-12-03T1000_handle_owner_index': handleOwnerIndex,
  '2026-12-03T1100_tokens_lootbox_burned': tokensLootboxBurned,
  '2026-12-04T1000_analytics_reads': analyticsReads,
  '2026-12-05T1000_live_token_counts_versioned': liveTokenCountsVersioned,
  '2026-12-06T1000_sales_collection_versions': salesCollectionVersions,
  '2026-12-07T1000_wallet_versions': walletVersions,
  '2026-12-08T1000_analytics_collection_versions': analyticsCollectionVersions,
  '2026-12-08T1100_documents_collection_versions': documentsCollectionVersions,
  '2026-12-08T1200_token_rows_collection_versions': tokenRowsCollectionVersions,
  '2026-12-09T1000_read_version_notify_tables': readVersionNotifyTables,
  '2026-12-09T1100_listings_active_names': listingsActiveNames,
  '2026-12-10T1000_read_version_notify_scopes': readVersionNotifyScopes,
  '2026-12-10T1100_metadata_pending': metadataPending,
  '2026-12-11T1000_burns_by_collection': burnsByCollection,
  '2026-12-12T1000_active_listings': activeListings,
  '2026-12-13T1000_read_versions_of_rows': readVersionsOfRows,
  '2026-12-13T1100_ranking_collection_identity': rankingCollectionIdentity,
  '2026-12-14T1000_lootbox_versions': lootboxVersions,
  '2026-12-14T1100_collection_identity_versions': collectionIdentityVersions,
  '2026-12-15T1000_wallet_holdings_versions': walletHoldingsVersions,
  '2026-12-16T1000_rarity_totals': rarityTotals,
  '2026-12-17T1000_collection_holdings': collectionHoldings,
  '2026-12-18T1000_collection_holdings_one_count': collectionHoldingsOneCount,
  '2026-12-19T1000_trait_value_floors': traitValueFloors,
  '2026-12-20T1000_active_listing_grams': activeListingGrams,
  '2026-12-21T1000_checkpoint_notify': checkpointNotify,
  '2026-12-22T1000_trait_value_floors_listed_once': traitValueFloorsListedOnce,
  '2026-12-22T1100_listing_search_collection_first': listingSearchCollectionFirst,
};

/** The migrations' names in the order they run. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Applies every pending migration. Re-running on an up-to-date database is a no-op. */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db: db as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    const cause = result.error instanceof Error ? result.error.message : String(result.error);
    throw new MigrationError(`migration ${failed} failed: ${cause}`);
  }
  return result;
}
