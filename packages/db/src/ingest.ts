/**
 * `@mdq/db/ingest`: the indexer's writes — facts mapped to rows and written with the checkpoint in
 * one transaction. Only the indexer (and the tools that replay a chain) import it.
 */
export * from './ingest/index';
