import { sql } from 'kysely';
import type { Db } from '../database';

/** What an answer reflects: the newest committed chain version, its block time, and the chain tip. */
export interface Freshness {
  /** Highest version any indexer has committed; null before the first batch. */
  indexedVersion: number | null;
  /** Block time of that version (the main follower's checkpoint). */
  indexedAt: Date | null;
  /** Newest version the indexer has seen at its source; null when no indexer has reported one. */
  tipVersion: number | null;
  /** When the indexer last looked at the tip. */
  tipSeenAt: Date | null;
}

/**
 * What the API reads, in one round trip: the freshness figures and the read version, a short
 * string naming the stored data (the highest indexed version and the write counter of the data
 * tables, `read_versions`, bumped by triggers in every writing transaction, whether the indexer's,
 * the worker's or an operator's). Equal versions mean equal data; both parts only grow. One
 * reading serves the freshness headers and the response cache, so they always describe the same state.
 */
export interface ReadState {
  version: string;
  freshness: Freshness;
}

export async function readState(db: Db): Promise<ReadState> {
  const { rows } = await sql<{
    read_version: string;
    indexed_version: number | null;
    indexed_at: Date | null;
    tip_version: number | null;
    tip_seen_at: Date | null;
  }>`
    SELECT
      coalesce(cp.indexed_version, -1)::text || '.' ||
        (SELECT coalesce(sum(version), 0) FROM read_versions)::text AS read_version,
      cp.indexed_version,
      (SELECT last_timestamp FROM indexer_checkpoints ORDER BY last_version DESC LIMIT 1) AS indexed_at,
      t.version AS tip_version,
      t.seen_at AS tip_seen_at
    FROM (SELECT max(last_version) AS indexed_version FROM indexer_checkpoints) AS cp
    LEFT JOIN chain_tip t ON t.id = 1`.execute(db);
  const row = rows[0];
  return {
    version: row?.read_version ?? '',
    freshness: {
      indexedVersion: row?.indexed_version ?? null,
      indexedAt: row?.indexed_at ?? null,
      tipVersion: row?.tip_version ?? null,
      tipSeenAt: row?.tip_seen_at ?? null,
    },
  };
}

/** The checkpoint and the tip together, as /ready and the analytics bodies need. */
export async function readFreshness(db: Db): Promise<Freshness> {
  return (await readState(db)).freshness;
}

/** Called by the indexer each time it looks at the source's tip; a version never goes back. */
export async function recordChainTip(db: Db, version: number): Promise<void> {
  await db
    .insertInto('chain_tip')
    .values({ id: 1, version })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        version: sql<number>`GREATEST(chain_tip.version, excluded.version)`,
        seen_at: sql<Date>`now()`,
      }),
    )
    .execute();
}

export interface Lag {
  versions: number | null;
  seconds: number | null;
}

/**
 * How far behind the chain the indexed data is. Versions: tip − indexed. Seconds: zero when caught
 * up, else the age of the newest indexed block (a live chain's tip is "now"); and never less than
 * the age of the tip reading itself, so a stopped indexer shows a growing lag instead of a frozen one.
 * Null when no indexer has reported a tip (nothing to compare with).
 */
export function lagOf(f: Freshness, now: Date, tipStaleAfterMs = 30_000): Lag {
  if (f.tipVersion === null || f.tipSeenAt === null) return { versions: null, seconds: null };
  const versions = Math.max(0, f.tipVersion - (f.indexedVersion ?? -1));
  const behind = versions === 0 || f.indexedAt === null ? 0 : now.getTime() - f.indexedAt.getTime();
  const tipAge = now.getTime() - f.tipSeenAt.getTime();
  const stale = tipAge > tipStaleAfterMs ? tipAge : 0;
  return { versions, seconds: Math.max(0, Math.round(Math.max(behind, stale) / 1000)) };
}

/** The four figures of the chain-lag metrics, from one freshness reading. */
export function chainLagOf(f: Freshness, now: Date) {
  const lag = lagOf(f, now);
  return {
    indexedVersion: f.indexedVersion,
    tipVersion: f.tipVersion,
    lagVersions: lag.versions,
    lagSeconds: lag.seconds,
  };
}
