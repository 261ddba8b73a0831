import { join } from 'node:path';
import { createDb, type Db, migrateToLatest } from '@mdq/db';
import { createTestDatabase, stateFingerprint, type TestDatabase } from '@mdq/db/testing';
import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { fullnodeSource, runIndexer } from '@mdq/indexer';
import { devnetDecoder } from '@mdq/indexer/testing';
import { noopNotifier } from '@mdq/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainCheckpoint, queryRows } from '../src/checkpoint';
import { printFigures } from '../src/figures';
import { type FillDataDir, type PrivatePostgres, startPrivatePostgres } from '../src/private-postgres';

/*
 * The backup and restore drill (docs/RELIABILITY.md, "Backup and restore"). Part of a devnet chain
 * is indexed into a private Postgres; it is backed up with pg_dump (custom format) and with
 * pg_basebackup, and a streaming replica is made of it. Each backup is restored into a fresh
 * server, the replica is promoted, and on each the indexer runs on to the tip. Every chain-state
 * table must then equal an uninterrupted run's: the checkpoint committed with the rows is all a
 * restored database needs to continue exactly once.
 */
const TRANSACTIONS = 1_000;
const checkpointOf = async (db: Db) =>
  Number(
    (
      await db
        .selectFrom('indexer_checkpoints')
        .select('last_version')
        .where('name', '=', 'main')
        .executeTakeFirstOrThrow()
    ).last_version,
  );
const BACKUP_AT = 200;
const FAILOVER_AT = 550;

describe('backup, restore and replica promotion', () => {
  let devnet: DevnetServer;
  let reference: TestDatabase;
  let expected: Record<string, string>;
  /** The last version of the chain, where every run ends. */
  let tip: number;
  const servers: PrivatePostgres[] = [];
  const dbs: Db[] = [];

  /**
   * The main follower, as `mdq indexer` runs it: to the tip, or stopped (like a Ctrl-C) once a batch
   * past `stopAfter` has committed. Returns the main checkpoint.
   */
  const index = async (db: Db, stopAfter?: number) => {
    const stop = new AbortController();
    await runIndexer({
      db,
      source: fullnodeSource(devnet.url),
      decode: devnetDecoder(devnet),
      notifier: noopNotifier,
      batchSize: 100,
      signal: stop.signal,
      untilCaughtUp: true,
      onBatch: (batch) => {
        if (stopAfter !== undefined && batch.lastVersion >= stopAfter) stop.abort();
      },
    });
    return checkpointOf(db);
  };
  const server = async (fill?: FillDataDir) => {
    const started = await startPrivatePostgres(fill ? { fill } : {});
    servers.push(started);
    return started;
  };
  const open = (url: string) => {
    const db = createDb(url, { max: 4 });
    dbs.push(db);
    return db;
  };
  const connection = (pg: PrivatePostgres) => ['-h', '127.0.0.1', '-p', String(pg.port), '-U', 'postgres'];
  /** Indexes on to the tip and fingerprints the chain-state tables. */
  const finish = async (url: string) => {
    const db = open(url);
    await migrateToLatest(db);
    const checkpoint = await index(db);
    return { checkpoint, fingerprint: await stateFingerprint(db) };
  };

  beforeAll(async () => {
    devnet = await startDevnetServer({
      port: 0,
      seed: 7,
      transactionsCount: TRANSACTIONS,
      blockIntervalMs: 0,
    });
    reference = await createTestDatabase();
    tip = await index(reference.db);
    expected = await stateFingerprint(reference.db);
  });
  afterAll(async () => {
    for (const db of dbs) await db.destroy().catch(() => undefined);
    for (const pg of servers) await pg.destroy();
    await reference?.drop();
    await devnet?.close();
  });

  it('restores a pg_dump and a pg_basebackup into fresh servers and indexes on to the same tables', async () => {
    const primary = await server();
    const primaryDb = open(primary.url);
    await migrateToLatest(primaryDb);
    const backedUp = await index(primaryDb, BACKUP_AT);

    const dump = join(primary.dir, 'mdq.dump');
    await primary.tool('pg_dump', [...connection(primary), '-Fc', '-f', dump, 'postgres']);
    const copy = await server((data, tool) =>
      tool('pg_basebackup', [...connection(primary), '-D', data, '-X', 'stream', '--no-sync']),
    );
    const fresh = await server();
    await fresh.tool('pg_restore', [...connection(fresh), '--exit-on-error', '-d', 'postgres', dump]);

    const checkpoints = await Promise.all([fresh, copy].map((pg) => mainCheckpoint(pg.url)));
    const [fromDump, fromBase] = await Promise.all([finish(fresh.url), finish(copy.url)]);
    await printFigures('restore', {
      transactions: TRANSACTIONS,
      backupAt: BACKUP_AT,
      backedUpCheckpoint: backedUp,
      restoredCheckpoints: checkpoints,
      finalCheckpoints: [fromDump.checkpoint, fromBase.checkpoint],
      tablesCompared: Object.keys(expected).length,
      dumpDiffering: Object.keys(expected).filter((t) => expected[t] !== fromDump.fingerprint[t]),
      basebackupDiffering: Object.keys(expected).filter((t) => expected[t] !== fromBase.fingerprint[t]),
    });
    // A mid-chain backup, restored with the checkpoint it was taken at.
    expect(backedUp).toBeGreaterThanOrEqual(BACKUP_AT);
    expect(backedUp).toBeLessThan(tip);
    expect(checkpoints).toEqual([backedUp, backedUp]);
    expect([fromDump.checkpoint, fromBase.checkpoint]).toEqual([tip, tip]);
    expect(fromDump.fingerprint).toEqual(expected);
    expect(fromBase.fingerprint).toEqual(expected);
  });

  it('promotes a streaming replica and indexes on to the same tables', async () => {
    const primary = await server();
    const primaryDb = open(primary.url);
    await migrateToLatest(primaryDb);
    await index(primaryDb, BACKUP_AT);
    const standby = await server((data, tool) =>
      tool('pg_basebackup', [...connection(primary), '-D', data, '-X', 'stream', '-R', '--no-sync']),
    );
    // Batches committed on the primary while the standby follows it.
    const failedOver = await index(primaryDb, FAILOVER_AT);
    const [{ lsn }] = (await queryRows(primary.url, 'SELECT pg_current_wal_lsn()::text AS lsn')) as [
      { lsn: string },
    ];
    for (let attempt = 0; ; attempt++) {
      const [row] = await queryRows(
        standby.url,
        'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught_up',
        [lsn],
      );
      if (row?.['caught_up'] === true) break;
      if (attempt > 600) throw new Error(`the standby never replayed up to ${lsn}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Failover: the primary is gone, the standby takes over.
    await primary.stop();
    await standby.promote();
    const promotedCheckpoint = await mainCheckpoint(standby.url);
    const promoted = await finish(standby.url);
    await printFigures('replica-promotion', {
      primaryCheckpoint: failedOver,
      promotedCheckpoint,
      finalCheckpoint: promoted.checkpoint,
      tablesDiffering: Object.keys(expected).filter((t) => expected[t] !== promoted.fingerprint[t]),
    });
    // Everything the primary committed before the failover is on the promoted standby.
    expect(failedOver).toBeGreaterThanOrEqual(FAILOVER_AT);
    expect(failedOver).toBeLessThan(tip);
    expect(promotedCheckpoint).toBe(failedOver);
    expect(promoted.checkpoint).toBe(tip);
    expect(promoted.fingerprint).toEqual(expected);
  });
});
