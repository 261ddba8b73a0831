/**
 * `@mdq/db/read`: what the API reads — its routes' queries (`queries/api`) and the Indexer API's
 * GraphQL compiled to SQL (`queries/indexer-graphql`). Readers only: nothing here writes chain data.
 */
export * from './queries/api/index';
export * from './queries/indexer-graphql/index';
