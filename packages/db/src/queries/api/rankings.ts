import { sql } from 'kysely';
import type { Db } from '../../database';
import { type Lootbox, toLootbox } from './lootbox';
import { iso, type Page, type PageRequest, toPage } from './pagination';

export type CollectionRanking = 'trending' | 'daily_picks' | 'top';
/** A collection ranking as stored: wash-flagged sales left out, or counted (`_with_flagged`). */
export type StoredCollectionRanking = CollectionRanking | `${CollectionRanking}_with_flagged`;

export interface RankingCard {
  rank: number;
  collectionId: string | null;
  collection: string | null;
  creator: string | null;
  collectionUrl: string | null;
  lootboxId: number | null;
  score: number;
  /** The inputs of the score as the worker computed them (volume, sales, floor change…). */
  metrics: Record<string, string | number | null>;
  computedAt: string;
}

/** A ranking as the worker last wrote it, by position (the table's primary key). */
export async function rankingPage(
  db: Db,
  ranking: StoredCollectionRanking,
  request: PageRequest,
): Promise<Page<RankingCard>> {
  const [{ rows }, { rows: count }] = await Promise.all([
    sql<{
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
    }>`
      SELECT rs.position, rs.collection_id, rs.lootbox_id, rs.score, rs.metrics, rs.computed_at,
             c.collection_name, c.creator_address, c.uri, c.lootbox_id AS c_lootbox_id
        FROM ranking_snapshots rs LEFT JOIN collections c ON c.collection_id = rs.collection_id
       WHERE rs.ranking = ${ranking}
       ORDER BY rs.position
       LIMIT ${request.limit + 1} OFFSET ${(request.page - 1) * request.limit}`.execute(db),
    sql<{
      total: number;
    }>`SELECT count(*)::int AS total FROM ranking_snapshots WHERE ranking = ${ranking}`.execute(db),
  ]);
  const page = toPage(
    rows,
    request,
    count[0]?.total ?? 0,
    () => [],
    (r) => ({
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
  );
  // Rankings page by position only (at most a few hundred entries): no cursor.
  page.pagination.nextCursor = null;
  return page;
}

export interface RankedLootbox extends Lootbox {
  rank: number;
}

/** Lootboxes by creation, newest first (recent-added) or not yet minting, soonest first (by-upcoming). */
export async function lootboxRanking(
  db: Db,
  kind: 'recent' | 'upcoming',
  request: PageRequest,
  now = new Date(),
): Promise<Page<RankedLootbox>> {
  const offset = (request.page - 1) * request.limit;
  let list = db.selectFrom('lootboxes').selectAll();
  let count = db.selectFrom('lootboxes').select((eb) => eb.fn.countAll<string>().as('total'));
  if (kind === 'upcoming') {
    list = list.where('mint_start', '>', now).orderBy('mint_start', 'asc').orderBy('lootbox_id', 'asc');
    count = count.where('mint_start', '>', now);
  } else {
    list = list.orderBy('created_at', 'desc').orderBy('lootbox_id', 'desc');
  }
  const [rows, total] = await Promise.all([
    list
      .limit(request.limit + 1)
      .offset(offset)
      .execute(),
    count.executeTakeFirst(),
  ]);
  const page = toPage(
    rows.map((r, i) => ({ row: r, rank: offset + i + 1 })),
    request,
    Number(total?.total ?? 0),
    () => [],
    ({ row, rank }) => ({ rank, ...toLootbox(row, now) }),
  );
  page.pagination.nextCursor = null;
  return page;
}
