import type { Defaulted, NullableTimestamp, Timestamp } from './columns';

export type ApiKeyKind = 'secret' | 'publishable';

export interface ApiKeysTable {
  key_id: string;
  key_hash: string;
  name: string;
  rate_limit_per_minute: number | null;
  /** `secret` (servers, every route) or `publishable` (browser pages: listed origins, read routes). */
  kind: Defaulted<ApiKeyKind>;
  /** A publishable key's origins (exact or `https://*.domain`); empty for a secret key. */
  allowed_origins: Defaulted<string[]>;
  created_at: Defaulted<Date>;
  revoked_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
}

/** Rows exported per key and UTC day (the export quota). */
export interface ExportUsageTable {
  key_id: string;
  day: string;
  rows: number;
}

/** The last attempt at pre-rendering one thumbnail (the worker's media-prerender task). */
export interface MediaRendersTable {
  media_id: string;
  width: number;
  format: string;
  source_uri: string | null;
  status: 'ok' | 'failed';
  reason: string | null;
  attempts: Defaulted<number>;
  attempted_at: Timestamp;
  next_attempt_at: NullableTimestamp;
}

export interface IndexerCheckpointsTable {
  name: string;
  last_version: number;
  last_timestamp: NullableTimestamp;
  updated_at: Defaulted<Date>;
}

/** One row: the newest chain version the indexer has seen at the source, and when. */
export interface ChainTipTable {
  id: Defaulted<number>;
  version: number;
  seen_at: Defaulted<Date>;
}

export interface FailedTransactionsTable {
  transaction_version: number;
  reason: string;
  payload: string | null;
  failed_at: Defaulted<Date>;
}

export interface CollectionChangeOutboxTable {
  collection_id: string;
  version: number;
}

export type { Timestamp };
