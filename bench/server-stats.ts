/**
 * What the Postgres server did under a measured run, so that a figure can be read against the server
 * it ran on: the settings that bound a write-heavy run (buffer pool, checkpoint spacing, WAL
 * compression), and, between two readings, the WAL written, how much of it was full-page images
 * (each first change of a page after a checkpoint logs the whole 8 kB page), and how many buffers
 * the backends had to write out themselves because the pool was full. The counters are the whole
 * server's (PostgreSQL 15: pg_stat_wal, pg_stat_bgwriter).
 */
import { type Db, sql } from '@mdq/db';

const SETTINGS = [
  'shared_buffers',
  'max_wal_size',
  'checkpoint_timeout',
  'wal_compression',
  // Off on CI's server: a read figure on a server that never vacuums meets the dead rows every
  // rewrite leaves (the rarity rows, the counters).
  'autovacuum',
] as const;

interface ServerReading {
  walRecords: number;
  walFpi: number;
  walBytes: number;
  checkpoints: number;
  backendWrites: number;
}

export async function readServer(db: Db): Promise<ServerReading> {
  const { rows } = await sql<ServerReading>`
    SELECT w.wal_records::float8 AS "walRecords", w.wal_fpi::float8 AS "walFpi", w.wal_bytes::float8 AS "walBytes",
           (b.checkpoints_timed + b.checkpoints_req)::float8 AS checkpoints, b.buffers_backend::float8 AS "backendWrites"
    FROM pg_stat_wal w, pg_stat_bgwriter b`.execute(db);
  const reading = rows[0];
  if (!reading) throw new Error('pg_stat_wal returned no row');
  return reading;
}

/** The settings of SETTINGS as `name=value` (as SHOW prints them), for a bench's header. */
export async function serverSettings(db: Db): Promise<string> {
  const { rows } = await sql<{ name: string; value: string }>`
    SELECT name, current_setting(name) AS value FROM pg_settings WHERE name = ANY(${SETTINGS}::text[])
    ORDER BY name`.execute(db);
  return rows.map((r) => `${r.name}=${r.value}`).join(', ');
}

/** Table rows (`| measure | value |`) for what the server did between two readings. */
export function serverRows(before: ServerReading, after: ServerReading): string {
  const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GB`;
  const fpi = after.walFpi - before.walFpi;
  return [
    `| server: WAL written | ${gb(after.walBytes - before.walBytes)} (${Math.round(after.walRecords - before.walRecords).toLocaleString('en-US')} records) |`,
    `| server: full-page images | ${Math.round(fpi).toLocaleString('en-US')} (${gb(fpi * 8192)} before compression) |`,
    `| server: checkpoints | ${after.checkpoints - before.checkpoints} |`,
    `| server: buffers written by backends (pool full) | ${gb((after.backendWrites - before.backendWrites) * 8192)} |`,
  ].join('\n');
}
