/**
 * The indexed devnet chain the API benchmark reads (run alone to build it:
 * `pnpm --filter @mdq/bench exec tsx api-dataset.ts --count 1000000`).
 *
 * Building a 1,000,000-transaction database takes about 25 minutes of both cores (indexing, then
 * crawling every document, then the recompute; 22.5 minutes with docs/SCALING.md's backfill
 * settings), so it is built
 * once and kept twice: as a template database on the local server (a run clones it with
 * CREATE DATABASE … TEMPLATE, a file copy) and as a pg_dump under bench/.out (gitignored), restored
 * into the template when the server has lost it. Migrations added since the build are applied to
 * each clone, so an old dump stays usable.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULTS } from '@mdq/config';
import { createDb, type Db, migrateToLatest, sql } from '@mdq/db';
import { testServerUrl, withDatabase } from '@mdq/db/testing';
import { fullnodeSource, runIndexer } from '@mdq/indexer';
import { noopNotifier } from '@mdq/jobs';
import { crawlCollectionMetadata, recomputeAll } from '@mdq/worker';
import pg from 'pg';
import {
  BENCH_DEVNET_ORIGIN,
  BENCH_DEVNET_PORT,
  devnetProcessDecoder,
  startDevnetProcess,
} from './devnet-process';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '.out');

export interface BenchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

const templateName = (count: number) => `mdq_bench_api_${count}`;
const dumpPath = (count: number) => join(OUT, `api-chain-${count}.dump`);

async function admin<T extends pg.QueryResultRow>(statement: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: testServerUrl() });
  await client.connect();
  try {
    return (await client.query<T>(statement, params)).rows;
  } finally {
    await client.end();
  }
}

async function databaseExists(name: string): Promise<boolean> {
  return (await admin('SELECT 1 FROM pg_database WHERE datname = $1', [name])).length > 0;
}

/** libpq connection arguments for pg_dump / pg_restore from the server URL. */
function libpqArgs(url: string): string[] {
  const u = new URL(url);
  return ['-h', u.hostname, '-p', u.port || '5432', '-U', decodeURIComponent(u.username || 'postgres')];
}

async function build(count: number, name: string, log: (line: string) => void): Promise<void> {
  await admin(`CREATE DATABASE ${name}_building`);
  const buildingUrl = withDatabase(testServerUrl(), `${name}_building`);
  const db = createDb(buildingUrl, { max: 5 });
  await migrateToLatest(db);
  const devnet = await startDevnetProcess(count, ['--port', String(BENCH_DEVNET_PORT)]);
  const t0 = performance.now();
  const stats = await runIndexer({
    db,
    source: fullnodeSource(devnet.url),
    decode: devnetProcessDecoder(),
    notifier: noopNotifier,
    batchSize: DEFAULTS.indexerBatchSize,
    untilCaughtUp: true,
  });
  log(`indexed ${stats.transactions} transactions in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  try {
    await crawlEveryDocument(db, log);
  } finally {
    devnet.stop();
  }
  const { rows } = await sql<{
    now: Date;
  }>`SELECT max(transaction_timestamp) AS now FROM marketplace_activities`.execute(db);
  // Rankings, rarity and snapshots as the worker leaves them at the chain's "now".
  await recomputeAll(db, new Date(rows[0]?.now ?? Date.now()));
  await keep(db, `${name}_building`, name, count, log);
}

/**
 * Every token's and collection's metadata document fetched and stored, as a worker that has followed
 * the chain leaves them: a marketplace's API serves a chain whose documents were crawled as its
 * tokens were minted. Without them the live bench's worker spent its run crawling the whole chain
 * (100 document writes a second, each retiring its collection's token pages), which no deployment
 * past its first days does. The crawler's own code through the devnet's documents, with the limits
 * lifted that protect a real host (one host here, on loopback).
 */
async function crawlEveryDocument(db: Db, log: (line: string) => void): Promise<void> {
  const t0 = performance.now();
  const { rows } = await sql<{ id: string }>`
    SELECT collection_id AS id FROM collections ORDER BY collection_id`.execute(db);
  const options = {
    ipfsGateways: DEFAULTS.ipfsGateways,
    arweaveGateway: DEFAULTS.arweaveGateway,
    trustedOrigins: [BENCH_DEVNET_ORIGIN],
    hostConcurrency: 32,
    hostIntervalMs: 0,
    batchSize: 1000,
  };
  const queue = rows.map((r) => r.id);
  let fetched = 0;
  let failed = 0;
  const crawlNext = async (): Promise<void> => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      for (let more = true; more; ) {
        const result = await crawlCollectionMetadata(db, id, options);
        fetched += result.fetched;
        failed += result.failed;
        more = result.more;
      }
    }
  };
  await Promise.all([crawlNext(), crawlNext(), crawlNext(), crawlNext()]);
  log(
    `crawled ${fetched} documents (${failed} failed) of ${rows.length} collections in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
}

/**
 * Compacts an indexed and recomputed chain database and renames it into the template, with its dump.
 * The build runs without autovacuum (the bench machine's setting), so the tables rewritten many
 * times over left their dead rows in place: the write counters' 94 rows took 173 MB, the active
 * listings 74 MB for 11,862 rows, each read of them a scan of that. A deployment's autovacuum keeps
 * such tables near their live size, and a template restored from the dump is compact too; rewritten
 * (FULL), then vacuumed again for the visibility map that index-only scans need, every template is
 * the same database whichever way it was made.
 */
async function keep(db: Db, current: string, name: string, count: number, log: (line: string) => void) {
  await sql`VACUUM (FULL, ANALYZE)`.execute(db);
  await sql`VACUUM`.execute(db);
  await db.destroy();
  await admin(`ALTER DATABASE ${current} RENAME TO ${name}`);
  mkdirSync(OUT, { recursive: true });
  const url = withDatabase(testServerUrl(), name);
  execFileSync('pg_dump', [...libpqArgs(url), '-Fc', '-f', dumpPath(count), name], { stdio: 'inherit' });
  log(`kept as database ${name} and ${dumpPath(count)}`);
}

/** Makes sure the template database for a chain of `count` transactions exists (builds it if needed). */
async function ensureTemplate(count: number, log: (line: string) => void = console.log): Promise<string> {
  const name = templateName(count);
  if (await databaseExists(name)) return name;
  await admin(`DROP DATABASE IF EXISTS ${name}_building WITH (FORCE)`);
  if (existsSync(dumpPath(count))) {
    log(`restoring ${dumpPath(count)} into ${name}`);
    await admin(`CREATE DATABASE ${name}_building`);
    execFileSync(
      'pg_restore',
      [...libpqArgs(testServerUrl()), '-j', '2', '-d', `${name}_building`, dumpPath(count)],
      { stdio: 'inherit' },
    );
    await admin(`ALTER DATABASE ${name}_building RENAME TO ${name}`);
    const db = createDb(withDatabase(testServerUrl(), name), { max: 1 });
    // The visibility map too, as a built template has it (keep).
    await sql`VACUUM ANALYZE`.execute(db);
    await db.destroy();
    return name;
  }
  log(`building a ${count.toLocaleString('en-US')}-transaction chain database (once; kept for later runs)`);
  await build(count, name, log);
  return name;
}

/** A fresh copy of the chain database for one run, migrated to the current schema. */
export async function cloneBenchDatabase(
  count: number,
  log: (line: string) => void = console.log,
): Promise<BenchDatabase> {
  const template = await ensureTemplate(count, log);
  const name = `mdq_bench_run_${Date.now().toString(36)}`;
  // A file copy: PostgreSQL 15's default (WAL_LOG) writes the whole 5.8 GB database through the
  // WAL and the buffer pool, 25-28 s of the server's time whose checkpoints then ran into the
  // measurement.
  await admin(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY = FILE_COPY`);
  const url = withDatabase(testServerUrl(), name);
  const db = createDb(url, { max: 1 });
  const migrated = await migrateToLatest(db);
  if ((migrated.results ?? []).length > 0) await sql`ANALYZE`.execute(db);
  await db.destroy();
  return { url, name, drop: async () => void (await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { count: { type: 'string' } } });
  const count = Number(values.count ?? 1_000_000);
  await ensureTemplate(count);
  process.exit(0);
}
