/** `@mdq/db/worker`: the worker's reads and writes (rankings, rarity, floors, snapshots, metadata, retention). */
export * from './queries/worker/index';
