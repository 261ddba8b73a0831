export { type CreateDbOptions, createDb, createPool, type Db } from './database';
export { type EmbeddedDatabase, freePort, startEmbeddedPostgres } from './embedded';
export { MigrationError, migrateToLatest } from './migrate';
export * from './queries/api-keys';
export * from './queries/checkpoints';
export type * from './schema/index';
