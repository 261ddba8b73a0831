import type { ColumnType } from 'kysely';
import type { Defaulted, Json, NullableTimestamp } from './columns';

export type WebhookStatus = 'active' | 'paused';

/** The filter an endpoint registered, as the API took it (ids already resolved and normalized). */
export interface WebhookFilterJson {
  collectionIds?: string[];
  tokenIds?: string[];
  wallets?: string[];
  kinds?: string[];
  marketplaces?: string[];
}

export interface WebhookEndpointsTable {
  endpoint_id: string;
  key_id: string;
  url: string;
  secret: string;
  filter: Json<WebhookFilterJson>;
  status: Defaulted<WebhookStatus>;
  failures: Defaulted<number>;
  /** Everything up to this position has been delivered (2xx). */
  cursor_version: number;
  cursor_event_index: number;
  created_at: Defaulted<Date>;
  paused_at: NullableTimestamp;
}

export interface WebhookDeliveriesTable {
  delivery_id: ColumnType<string, never, never>;
  endpoint_id: string;
  event_id: string;
  attempted_at: Defaulted<Date>;
  status_code: number | null;
  ok: boolean;
  error: string | null;
}
