import { readdir, readFile } from 'node:fs/promises';
import type { Redis } from 'ioredis';
import type pg from 'pg';

/**
 * What one soak sample reads from outside the processes: /proc for memory and descriptors (the
 * devnet has no /metrics), each process's Prometheus text for heap, event-loop delay, chain lag and
 * queue depth, Postgres for sizes and connections, Redis for its memory.
 */

/** Resident set size (VmRSS) and open descriptors of a live process; null once it has exited. */
export async function procReading(pid: number): Promise<{ rssBytes: number; fds: number } | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN);
    const fds = (await readdir(`/proc/${pid}/fd`)).length;
    return Number.isFinite(kb) ? { rssBytes: kb * 1024, fds } : null;
  } catch {
    return null;
  }
}

/** A process's /metrics text, or '' when it does not answer within 5 s. */
export async function scrape(url: string): Promise<string> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return res.ok ? await res.text() : '';
  } catch {
    return '';
  }
}

/**
 * The values of metric `name` in Prometheus text, one per label set (the raw `{…}` string, '' when
 * the sample has no labels). prom-client writes one sample per line: `name{labels} value`.
 */
export function metricValues(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    out.set(match[2] ?? '', Number(match[3]));
  }
  return out;
}

/** The single (unlabelled) value of `name`, or null when the text has none. */
export function metricValue(text: string, name: string): number | null {
  const value = metricValues(text, name).get('');
  return value === undefined || !Number.isFinite(value) ? null : value;
}

/** Waiting + active jobs per queue (the backlog; delayed holds the repeatable schedules). */
export function queueDepths(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [labels, n] of metricValues(text, 'mdq_queue_jobs')) {
    const queue = /queue="([^"]*)"/.exec(labels)?.[1];
    const state = /state="([^"]*)"/.exec(labels)?.[1];
    if (!queue || (state !== 'waiting' && state !== 'active')) continue;
    out[queue] = (out[queue] ?? 0) + n;
  }
  return out;
}

export interface DatabaseReading {
  databaseBytes: number;
  /** pg_total_relation_size (heap, indexes, TOAST) of every table in `public`. */
  tableBytes: Record<string, number>;
  /** Dead tuples per table (pg_stat_user_tables.n_dead_tup): what autovacuum has yet to reclaim. */
  deadTuples: Record<string, number>;
  /** Connections to this database, the sampler's own included. */
  connections: number;
  /** The server's WAL position in bytes (the whole server's, other databases included). */
  walPosition: number;
  /** The main follower's checkpoint; -1 before its first commit. */
  indexedVersion: number;
}

export async function databaseReading(client: pg.Client): Promise<DatabaseReading> {
  const { rows: sizes } = await client.query<{ name: string; bytes: string }>(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid)::text AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')`,
  );
  const { rows: dead } = await client.query<{ name: string; n: string }>(
    `SELECT relname AS name, n_dead_tup::text AS n FROM pg_stat_user_tables WHERE schemaname = 'public'`,
  );
  const { rows } = await client.query<{ db: string; conns: number; wal: string; v: string | null }>(
    `SELECT pg_database_size(current_database())::text AS db,
            (SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database()) AS conns,
            (pg_current_wal_lsn() - '0/0'::pg_lsn)::text AS wal,
            (SELECT last_version::text FROM indexer_checkpoints WHERE name = 'main') AS v`,
  );
  const row = rows[0];
  return {
    databaseBytes: Number(row?.db ?? 0),
    tableBytes: Object.fromEntries(sizes.map((s) => [s.name, Number(s.bytes)])),
    deadTuples: Object.fromEntries(dead.map((d) => [d.name, Number(d.n)])),
    connections: row?.conns ?? 0,
    walPosition: Number(row?.wal ?? 0),
    indexedVersion: row?.v === null || row?.v === undefined ? -1 : Number(row.v),
  };
}

/** Redis's used_memory (bytes), from INFO memory. */
export async function redisMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? 0);
}

/** The chain tip a fullnode reports: its ledger version. */
export async function ledgerVersion(fullnodeUrl: string): Promise<number> {
  const res = await fetch(fullnodeUrl, { signal: AbortSignal.timeout(10_000) });
  const info = (await res.json()) as { ledger_version: string };
  return Number(info.ledger_version);
}
