import type { RankedCollection, RankedLootbox } from '@mdq/contracts';
import { sql } from 'kysely';
import type { Db } from '../../database';
import { LOOTBOX_COLUMNS, toLootbox } from './lootbox';
import { fetchPage, iso, type Page, type PageKey, type PageRequest } from './pagination';

export type CollectionRanking = 'trending' | 'daily_picks' | 'top';
/** A collection ranking as stored: wash-flagged sales left out, or counted (`_with_flagged`). */
export type StoredCollectionRanking = CollectionRanking | `${CollectionRanking}_with_flagged`;

export type RankingCard = RankedCollection;

interface RankingRow {
  position: number;
  collection_id: string | null;
  lootbox_id: number | null;
  score: number;
  metrics: Record<string, string | number | null>;
  computed_at: Date;
  collection_name: string | null;
  creator_address: string | null;
  uri: string | null;
  c_lootbox_id: number | null;
}

/** A ranking as the worker last wrote it, by position (the table's primary key). */
export function rankingPage(
  db: Db,
  ranking: StoredCollectionRanking,
  request: PageRequest,
): Promise<Page<RankingCard>> {
  return fetchPage(
    db,
    {
      // The position is the cursor: unique within the snapshot, and the table's primary key.
      keys: [{ expr: sql`rs.position`, dir: 'asc', kind: 'int', field: 'position' }],
      rows: (p) => sql<RankingRow>`
        SELECT rs.position, rs.collection_id, rs.lootbox_id, rs.score, rs.metrics, rs.computed_at,
               rs.collection_name, rs.creator_address, rs.uri, rs.collection_lootbox_id AS c_lootbox_id
          FROM ranking_snapshots rs
         WHERE rs.ranking = ${ranking} AND ${p.after()}
         ORDER BY ${p.order} ${p.window}`,
      count: sql`SELECT count(*)::int AS total FROM ranking_snapshots WHERE ranking = ${ranking}`,
      // One ranking's rows by position (its primary key): the same plan for every ranking.
      prepared: true,
      map: (r) => ({
        rank: r.position,
        collectionId: r.collection_id,
        collection: r.collection_name,
        creator: r.creator_address,
        collectionUrl: r.uri,
        lootboxId: r.lootbox_id ?? r.c_lootbox_id,
        score: r.score,
        metrics: r.metrics,
        computedAt: iso(r.computed_at) ?? '',
      }),
    },
    request,
  );
}

/** A lootbox row as toLootbox reads it. */
type LootboxRow = Parameters<typeof toLootbox>[0];

export type { RankedLootbox };

/** A lootbox row with its place in the ranking and its sort time in µs (a cursor-safe integer). */
type RankedRow = LootboxRow & { rank: string; at_us: number; changes_at: Date | null };

// Times as µs since the epoch: a cursor carrying a JS Date (ms) would cut a µs block time.
const RECENT: PageKey<RankedRow>[] = [
  { expr: sql`at_us`, dir: 'desc', kind: 'int', field: 'at_us' },
  { expr: sql`lootbox_id`, dir: 'desc', kind: 'int', field: 'lootbox_id' },
];
const SOONEST: PageKey<RankedRow>[] = [
  { expr: sql`at_us`, dir: 'asc', kind: 'int', field: 'at_us' },
  { expr: sql`lootbox_id`, dir: 'asc', kind: 'int', field: 'lootbox_id' },
];

/** A page of a lootbox ranking, and how long it holds. */
export interface LootboxRankingPage {
  page: Page<RankedLootbox>;
  /**
   * Until when (epoch ms) the page stays true at the same read version: statuses and the upcoming
   * list move with the clock at any lootbox's next mint start or end; null when none is ahead.
   */
  holdsUntil: number | null;
}

/** Lootboxes by creation, newest first (recent-added) or not yet minting, soonest first (by-upcoming). */
export async function lootboxRanking(
  db: Db,
  kind: 'recent' | 'upcoming',
  request: PageRequest,
  now = new Date(),
): Promise<LootboxRankingPage> {
  const where = kind === 'upcoming' ? sql`mint_start > ${now}` : sql`true`;
  const keys = kind === 'upcoming' ? SOONEST : RECENT;
  const time = kind === 'upcoming' ? sql`mint_start` : sql`created_at`;
  let changesAt: Date | null | undefined;
  const page = await fetchPage(
    db,
    {
      keys,
      // The rank is the row's place in the whole list (a few hundred lootboxes at most), so that a
      // page read by cursor numbers its rows as the same page read by number does. The next
      // clock-driven change of any lootbox comes with the rows (an init plan, read once).
      // A few hundred rows at most, read whole: planned once per connection (its columns named,
      // LOOTBOX_COLUMNS).
      prepared: true,
      rows: (p) => sql<RankedRow>`
        SELECT *, (SELECT least(min(mint_start) FILTER (WHERE mint_start > ${now}),
                                min(mint_end) FILTER (WHERE mint_end > ${now}))
                     FROM lootboxes) AS changes_at
          FROM (SELECT *, row_number() OVER (ORDER BY ${p.order})::text AS rank
                  FROM (SELECT ${sql.raw(LOOTBOX_COLUMNS.join(', '))},
                               (extract(epoch FROM ${time}) * 1000000)::bigint::float8 AS at_us
                          FROM lootboxes WHERE ${where}) timed) ranked
         WHERE ${p.after()} ORDER BY ${p.order} ${p.window}`,
      count: sql`SELECT count(*)::int AS total FROM lootboxes WHERE ${where}`,
      map: (row) => {
        changesAt ??= row.changes_at;
        return { rank: Number(row.rank), ...toLootbox(row, now) };
      },
    },
    request,
  );
  // An empty page has no row to tell the next change: with nothing upcoming (or for all lootboxes)
  // it only moves with a write; past the end of a non-empty upcoming list its total shrinks at the
  // next mint start, so it holds no longer than now.
  if (changesAt === undefined) {
    const moves = kind === 'upcoming' && page.pagination.total > 0;
    return { page, holdsUntil: moves ? now.getTime() : null };
  }
  return { page, holdsUntil: changesAt ? changesAt.getTime() : null };
}
