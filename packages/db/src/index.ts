/**
 * `@mdq/db`: what every reader and writer shares — the connection (`createDb`), the migrations, the
 * schema's types, checkpoints and locks, the read-state counters, API keys, the change outbox and
 * the market rules. What only one kind of reader needs has its own entry point, and
 * dependency-cruiser holds who imports which (`.dependency-cruiser.cjs`):
 * `@mdq/db/read` (the API's queries), `@mdq/db/ingest` (the indexer's writes), `@mdq/db/worker`,
 * `@mdq/db/feed` (live feed and webhooks), `@mdq/db/export`, `@mdq/db/embedded` (the embedded
 * Postgres launcher).
 */
export { sql } from 'kysely';
export {
  type CreateDbOptions,
  closeDb,
  createDb,
  createDbLike,
  createPool,
  type Db,
  onOneConnection,
  poolIfAny,
  poolOf,
} from './database';
export { MIGRATION_NAMES, MigrationError, migrateToLatest } from './migrate';
export * from './queries/api-key-events';
export * from './queries/api-keys';
export * from './queries/change-outbox';
export * from './queries/checkpoints';
export * from './queries/follower-lock';
export * from './queries/freshness';
export * from './queries/locks';
export * from './queries/market-rules';
export * from './queries/media';
export * from './queries/read-versions';
export type * from './schema/index';
