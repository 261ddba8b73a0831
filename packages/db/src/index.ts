export { type CreateDbOptions, createDb, createPool, type Db } from './database';
export { type EmbeddedDatabase, freePort, startEmbeddedPostgres } from './embedded';
export * from './ingest/index';
export { MigrationError, migrateToLatest } from './migrate';
export * from './queries/api-keys';
export * from './queries/checkpoints';
export * from './queries/locks';
export type * from './schema/index';
export * from './queries/worker/index';
