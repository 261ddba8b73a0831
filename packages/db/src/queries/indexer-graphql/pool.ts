import { createDbLike, type Db } from '../../database';

/**
 * The Indexer GraphQL's own connections to the database `db` reads (undefined for a Db not made by
 * createDb, a test's recording wrapper): a bulkhead, so that statements shaped by clients cannot
 * take every connection the pages need; read-only; with the statement timeout, so that an operation
 * is one statement and one round trip; without JIT (an estimate far above what a LIMIT costs made
 * Postgres compile before its first row). Index pages are priced as the cached pages they are
 * (`random_page_cost` 1.1, Postgres' default 4 prices a disk seek): the filters are the clients',
 * and under a LIMIT without ORDER BY a misestimate (a wallet that sold most of its tokens: 19,849
 * held rows expected, 16 found) made the default costs read all 1.1M ownerships, 172 ms, against
 * 5.1 ms through the owner's index (docs/PERFORMANCE.md). The API's own statements keep the
 * server's costs, under which each was tuned.
 */
export function createIndexerGraphqlDb(
  db: Db,
  limits: { connections: number; statementTimeoutMs: number },
): Db | undefined {
  return createDbLike(db, {
    applicationName: 'mdq-api-graphql',
    max: limits.connections,
    statementTimeoutMs: limits.statementTimeoutMs,
    jit: false,
    readOnly: true,
    randomPageCost: 1.1,
  });
}
