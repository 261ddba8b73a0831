import type { Defaulted, Json, NullableTimestamp, Timestamp } from './columns';

/** A trait of a document's `attributes`, as stored: the type and the value as text. */
export interface DocumentAttribute {
  trait_type: string;
  value: string;
}

/** One entry of `properties.files`. */
export interface DocumentFile {
  uri: string;
  type: string | null;
  cdn?: boolean;
}

/** The spec validation report of a document (`validateMetadata`). */
export interface DocumentReport {
  valid: boolean;
  errors: { path: string; message: string }[];
  warnings: { path: string; message: string }[];
}

/**
 * The off-chain metadata document of a token or collection as the worker's crawler last fetched it
 * (migration 2026-11-30T1000): parsed fields, the SHA-256 of the raw bytes, the validation report,
 * and the outcome. `subject_version` is the token's (collection's) last_transaction_version the
 * fetch was made for: a newer one (a mutation) makes the document due again.
 */
export interface MetadataDocumentsTable {
  kind: 'token' | 'collection';
  subject_id: string;
  collection_id: string;
  uri: string | null;
  subject_version: number;
  status: 'ok' | 'error';
  error: string | null;
  content_hash: string | null;
  name: string | null;
  description: string | null;
  image: string | null;
  animation_url: string | null;
  external_url: string | null;
  attributes: Json<DocumentAttribute[] | null> | null;
  files: Json<DocumentFile[] | null> | null;
  category: string | null;
  report: Json<DocumentReport | null> | null;
  attempts: Defaulted<number>;
  fetched_at: Timestamp;
  changed_at: NullableTimestamp;
  refresh_at: Timestamp;
}

/**
 * A live token whose document the crawler may still have to fetch (migration 2026-12-10T1100):
 * kept by a trigger on tokens at the token's version when it is inserted, mutated (a new version or
 * URI) or unburned; deleted when it is burned or deleted, and by the crawler once a document stored
 * for `version` or a later one exists. What the crawl and its sweep list instead of every token.
 */
export interface MetadataPendingTable {
  token_data_id: string;
  collection_id: string;
  version: number;
}
