import type { ColumnType } from 'kysely';
import type { Defaulted, Json, NullableTimestamp, Timestamp, U64 } from './columns';

export interface CollectionSnapshotsTable {
  collection_id: string;
  snapshot_at: Timestamp;
  floor_price: U64 | null;
  holder_count: number;
  listed_count: number;
  current_supply: U64;
}

/** Collection rankings; each is also stored with wash-flagged sales counted (`<name>_with_flagged`). */
export type RankingName =
  | 'trending'
  | 'daily_picks'
  | 'top'
  | 'trending_with_flagged'
  | 'daily_picks_with_flagged'
  | 'top_with_flagged'
  | 'recent_added'
  | 'upcoming';

export interface RankingSnapshotsTable {
  ranking: RankingName;
  position: number;
  collection_id: string | null;
  lootbox_id: number | null;
  score: number;
  metrics: Json<Record<string, string | number | null>>;
  computed_at: Timestamp;
  /**
   * What a ranking page shows of the collection, copied from `collections` by triggers
   * (migration 2026-12-13T1100): written by them, never by the worker.
   */
  collection_name: Defaulted<string | null>;
  creator_address: Defaulted<string | null>;
  uri: Defaulted<string | null>;
  collection_lootbox_id: Defaulted<number | null>;
}

export interface RankingRunsTable {
  ranking: RankingName;
  computed_at: Timestamp;
  window_start: NullableTimestamp;
  window_end: NullableTimestamp;
  entries: number;
}

/**
 * A collection's position in a ranking changed within its top N (the feed's `ranking_changed`);
 * written by the worker with the new ranking, keyed after the indexer checkpoint it saw.
 */
export interface CollectionRankingChangesTable {
  transaction_version: number;
  /** The feed's index: RANKING_EVENT_OFFSET + a counter per version, in commit order. */
  event_index: number;
  ranking: RankingName;
  collection_id: string;
  /** The position (1 = first) after the run; null when the collection left the ranking. */
  rank: number | null;
  /** The position before the run; null when the collection was not ranked. */
  previous_rank: number | null;
  score: number | null;
  top_n: number;
  window_start: NullableTimestamp;
  computed_at: Timestamp;
  /** The block time of the checkpoint version, so feed timestamps never go back. */
  transaction_timestamp: Timestamp;
}

export interface SocialSignalsTable {
  collection_id: string;
  observed_on: ColumnType<string, string, string>;
  engagement: number;
  source: string | null;
}

export interface TokenRarityTable {
  token_data_id: string;
  collection_id: string;
  score: number;
  rank: number;
  trait_count: number;
  computed_at: Timestamp;
}

/**
 * Live attribute rows per (collection, trait type, value), kept by triggers on `tokens` and
 * `token_attributes` in the writing transaction (migration 2026-11-26T1000). 0 once every live
 * token with the value is gone: read `live_count > 0`.
 */
export interface TraitValueCountsTable {
  collection_id: string;
  trait_type: string;
  value: string;
  live_count: number;
}

/**
 * Live tokens per name stem (the lowercased name without its trailing digits), kept by triggers on
 * `tokens` in the writing transaction (migration 2026-11-28T1300); token search reads it. A stem
 * with no live token is deleted.
 */
export interface TokenNameStemsTable {
  stem: string;
  live_count: number;
}

/** Active listings per (creator, collection name) of the listing rows, kept by triggers on listings. */
export interface ActiveListingCountsTable {
  creator_address: string | null;
  collection_name: string | null;
  listings: number;
}

/** Per collection: live tokens, and the id of the last transaction that changed what rarity reads. */
export interface CollectionTraitTotalsTable {
  collection_id: string;
  live_tokens: number;
  changed_version: number;
}

/** The `changed_version` a collection's OpenRarity was last computed from (written by the worker). */
export interface CollectionRarityMarksTable {
  collection_id: string;
  computed_from: number;
}

/** Per collection: its `token_rarity` rows, kept by the database (migration 2026-12-16T1000). */
export interface CollectionRarityTotalsTable {
  collection_id: string;
  ranked: number;
}

/** Each holder's count of a collection's tokens (migration 2026-12-17T1000, kept by triggers). */
export interface CollectionHoldingsTable {
  collection_id: string;
  holder: string;
  held: number;
}

/** Each trait value's lowest active listing price per coin type (migration 2026-12-19T1000, kept by triggers). */
export interface TraitValueFloorsTable {
  collection_id: string;
  trait_type: string;
  value: string;
  coin_type: string | null;
  floor: U64;
}

/**
 * The active listings per one- or two-character search text (migration 2026-12-20T1000, kept by
 * triggers): those whose token name or collection's name contains it, case-insensitively.
 */
export interface ActiveListingGramsTable {
  gram: string;
  listings: number;
}

export interface UserInventorySnapshotsTable {
  owner_address: string;
  snapshot_at: Timestamp;
  token_count: number;
  floor_value: U64;
}

export interface CollectionUriCacheTable {
  collection_id: string;
  metadata_uri: string | null;
  image_url: string | null;
  content_type: string | null;
  status: 'ok' | 'error' | 'pending';
  error: string | null;
  attempts: Defaulted<number>;
  fetched_at: NullableTimestamp;
  expires_at: NullableTimestamp;
}
