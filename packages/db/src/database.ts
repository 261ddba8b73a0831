import { createFailureLog, describeError, failureKey, processLogger } from '@mdq/log';
import { trackPool } from '@mdq/telemetry';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema/index';

export type Db = Kysely<Database>;

const INT8 = 20;
const DATE = 1082;

/*
 * Per-pool type parsers (not pg's global ones): bigint columns hold chain versions and counts, far
 * below 2^53, so they become numbers; numeric (u64 prices) stays a string; dates stay 'YYYY-MM-DD'.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8) return (value: string) => Number(value);
    if (oid === DATE) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

// A Postgres restart drops every client of every pool at once: one line per distinct failure per
// window, with a count, instead of one per client (or none).
const connectionFailures = createFailureLog();

function logConnectionError(pool: string): (error: Error) => void {
  return (error) => {
    const message = describeError(error);
    connectionFailures.report(failureKey(`${pool} ${message}`), ({ count }) =>
      processLogger().warn({ component: 'postgres', pool, err: message, count }, 'postgres connection lost'),
    );
  };
}

export interface CreateDbOptions {
  max?: number;
  applicationName?: string;
  statementTimeoutMs?: number;
  /**
   * false: the connections run with `jit = off`. For request-sized reads: Postgres JIT-compiles any
   * statement whose estimate passes `jit_above_cost`, and an estimate is often far above what a
   * LIMIT and index lookups really cost. The Indexer GraphQL's owned-tokens statement (a thousand
   * rows with their token and collection) spent 600 ms compiling 95 functions before its first row,
   * against 230 ms for the whole scan (docs/PERFORMANCE.md).
   */
  jit?: boolean;
  /** true: every transaction of these connections is read-only (`default_transaction_read_only`). */
  readOnly?: boolean;
  /**
   * The planner's `random_page_cost` on these connections (Postgres' default, 4, prices an index
   * page read as a disk seek; the Indexer GraphQL's pool sets 1.1, createIndexerGraphqlDb says why).
   */
  randomPageCost?: number;
}

export function createPool(url: string, options: CreateDbOptions = {}): pg.Pool {
  const settings = [
    ...(options.jit === false ? ['-c jit=off'] : []),
    ...(options.readOnly ? ['-c default_transaction_read_only=on'] : []),
    ...(options.randomPageCost === undefined ? [] : [`-c random_page_cost=${options.randomPageCost}`]),
  ];
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'mdq',
    types,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    ...(settings.length > 0 ? { options: settings.join(' ') } : {}),
  });
  // A client that loses its server (restart, failover) emits 'error'. pool.on('error') covers idle
  // clients only; a client checked out for a transaction or held for an advisory lock has no
  // listener of its own, and an unhandled 'error' event ends the process. So every client gets one
  // for its whole life: the query in flight fails on its own and the pool discards the client.
  const name = options.applicationName ?? 'mdq';
  const log = logConnectionError(name);
  // pool.end() resolves once it has asked each client to end, not once they have: a server
  // stopped right after (mdq start's Ctrl-C stops the embedded Postgres last) can still terminate
  // a client that is ending. Those clients were being closed anyway: no outage to report.
  const onError = (error: Error) => {
    if (!pool.ending) log(error);
  };
  pool.on('error', onError);
  trackPool(name, pool);
  pool.on('connect', (client) => {
    client.on('error', onError);
  });
  return pool;
}

// The pool behind each Db, for the few callers that need a raw client (COPY streams).
const pools = new WeakMap<Db, pg.Pool>();
// The client behind each Db of one connection (onOneConnection), for prepared statements, and
// that Db of each pooled client: clients are reused, so each is lent to Kysely once.
const clients = new WeakMap<Db, pg.PoolClient>();
const lentDbs = new WeakMap<pg.PoolClient, Db>();

/**
 * `client` refusing a statement sent while another of its statements runs. pg queues such a
 * statement in the client, a use it deprecates (an error from pg 9) and that hides a caller who
 * meant the statements to run side by side: they never did. Refused here, the caller's stack names
 * the caller. A cursor (no promise) is not tracked.
 */
function oneStatementAtATime(client: pg.PoolClient): pg.PoolClient {
  let running = false;
  const guarded = Object.create(client) as pg.PoolClient;
  guarded.query = ((...args: unknown[]) => {
    if (running) {
      return Promise.reject(
        new Error('a statement was sent on a connection still running another: await each one first'),
      );
    }
    const result = (client.query as (...a: unknown[]) => unknown).apply(client, args);
    if (typeof (result as PromiseLike<unknown> | undefined)?.then !== 'function') return result;
    running = true;
    return Promise.resolve(result).finally(() => {
      running = false;
    });
  }) as pg.PoolClient['query'];
  return guarded;
}

/** A Db whose every statement runs on `client` (a pool to Kysely that always hands it out). */
function lentDb(client: pg.PoolClient): Db {
  let db = lentDbs.get(client);
  if (db === undefined) {
    const guarded = oneStatementAtATime(client);
    const lent = { query: guarded.query.bind(guarded), release: () => {} };
    db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: { connect: async () => lent, end: async () => {} } as never }),
    });
    clients.set(db, guarded);
    lentDbs.set(client, db);
  }
  return db;
}

export function createDb(url: string, options: CreateDbOptions = {}): Db {
  const pool = createPool(url, options);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

/**
 * A Db of its own connections to the database `db` connects to, with other settings (a bulkhead:
 * the Indexer GraphQL's pool); undefined for a Db not made by createDb (a test's recording wrapper).
 */
export function createDbLike(db: Db, options: CreateDbOptions): Db | undefined {
  const url = pools.get(db)?.options.connectionString;
  return url === undefined ? undefined : createDb(url, options);
}

/**
 * Ends `db` and its connections. Kysely ends a pool only once it has run a statement on it itself,
 * and prepared statements go to the pool directly (prepared.ts): a Db that only ran those would
 * keep its connections open after `destroy()`.
 */
export async function closeDb(db: Db): Promise<void> {
  await db.destroy();
  const pool = pools.get(db);
  if (pool && !pool.ending) await pool.end();
}

/**
 * Runs `run` with a Db on one connection of `db`'s pool: an answer that reads several statements
 * takes one connection, not one per statement, and its statements may still run prepared
 * (executePrepared: prepared statements live on their connection, which Kysely's
 * `db.connection()` does not expose). A Db not made by createDb lends its own connection.
 */
export async function onOneConnection<T>(db: Db, run: (connection: Db) => Promise<T>): Promise<T> {
  const pool = pools.get(db);
  if (!pool) return db.connection().execute(run);
  const client = await pool.connect();
  try {
    return await run(lentDb(client));
  } finally {
    // pg-pool discards a client that can no longer query (its connection lost) on release.
    client.release();
  }
}

/** What runs a prepared statement for `db`: its pool, or the connection it is bound to. */
export function queryTargetOf(db: Db): pg.Pool | pg.PoolClient | undefined {
  return pools.get(db) ?? clients.get(db);
}

/** The pool behind `db`, or undefined for a Db not made by createDb (a wrapper that records statements). */
export function poolIfAny(db: Db): pg.Pool | undefined {
  return pools.get(db);
}

/** The pg pool a Db made by createDb runs on (COPY needs a raw client, which Kysely does not lend). */
export function poolOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('this Db was not made by createDb: no pool to take a raw client from');
  return pool;
}
