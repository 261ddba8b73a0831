export { sql } from 'kysely';
export { type CreateDbOptions, createDb, createPool, type Db, poolIfAny, poolOf } from './database';
export {
  type EmbeddedDatabase,
  type EmbeddedOptions,
  EmbeddedStartError,
  embeddedDatabaseUrl,
  freePort,
  runningEmbeddedUrl,
  startEmbeddedPostgres,
  stopEmbeddedPostgres,
} from './embedded';
export * from './export/index';
export * from './ingest/index';
export { MIGRATION_NAMES, MigrationError, migrateToLatest } from './migrate';
export * from './queries/api/index';
export * from './queries/api-key-events';
export * from './queries/api-keys';
export * from './queries/change-outbox';
export * from './queries/checkpoints';
export * from './queries/feed/index';
export * from './queries/follower-lock';
export * from './queries/freshness';
export * from './queries/indexer-graphql/index';
export * from './queries/locks';
export * from './queries/market-rules';
export * from './queries/media';
export * from './queries/read-versions';
export * from './queries/worker/index';
export type * from './schema/index';
