import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import { unnestInsert } from '../../ingest/bulk';
import type { RankingName } from '../../schema/index';
import { appendRankingChanges, rankingChanges } from '../feed/ranking-changes';
import { isNativeCoin, isSale } from '../market-rules';

export interface WindowSales {
  collectionId: string;
  /** Sum of fill prices in the native coin (smallest unit, decimal string). */
  volume: string;
  sales: number;
  uniqueBuyers: number;
}

/** A window's sales per collection twice: without the wash-flagged sales, and with them. */
export interface WindowSalesFields {
  clean: WindowSales[];
  withFlagged: WindowSales[];
}

/**
 * Sales per collection with at least one native-coin fill in [from, to], both fields from one scan
 * of the window's fills: `clean` leaves wash-flagged sales out (a collection with only flagged
 * sales is absent), `withFlagged` counts them. Read separately, the two fields cost the window's
 * scan twice in every ranking (docs/PERFORMANCE.md).
 */
export async function loadWindowSalesFields(db: Db, from: Date, to: Date): Promise<WindowSalesFields> {
  const clean = sql`wash_flags = '{}'`;
  const { rows } = await sql<{
    collectionId: string;
    volume: string;
    sales: number;
    uniqueBuyers: number;
    cleanVolume: string | null;
    cleanSales: number;
    cleanBuyers: number;
  }>`
    SELECT collection_id AS "collectionId", sum(price)::text AS volume, count(*)::int AS sales,
           count(DISTINCT buyer)::int AS "uniqueBuyers",
           (sum(price) FILTER (WHERE ${clean}))::text AS "cleanVolume",
           (count(*) FILTER (WHERE ${clean}))::int AS "cleanSales",
           (count(DISTINCT buyer) FILTER (WHERE ${clean}))::int AS "cleanBuyers"
    FROM marketplace_activities
    WHERE ${isSale('kind')}
      AND transaction_timestamp >= ${from} AND transaction_timestamp <= ${to}
      AND collection_id IS NOT NULL AND ${isNativeCoin('coin_type')}
    GROUP BY collection_id
  `.execute(db);
  return {
    withFlagged: rows.map((r) => ({
      collectionId: r.collectionId,
      volume: r.volume,
      sales: r.sales,
      uniqueBuyers: r.uniqueBuyers,
    })),
    clean: rows
      .filter((r) => r.cleanSales > 0)
      .map((r) => ({
        collectionId: r.collectionId,
        volume: r.cleanVolume ?? '0',
        sales: r.cleanSales,
        uniqueBuyers: r.cleanBuyers,
      })),
  };
}

/**
 * One field of `loadWindowSalesFields`: wash-flagged sales are left out unless `includeFlagged`
 * (then a collection with only flagged sales appears too).
 */
export async function loadWindowSales(
  db: Db,
  from: Date,
  to: Date,
  options: { includeFlagged?: boolean } = {},
): Promise<WindowSales[]> {
  const fields = await loadWindowSalesFields(db, from, to);
  return options.includeFlagged ? fields.withFlagged : fields.clean;
}

/**
 * A collection's current holders: distinct wallets holding one of its tokens, a token listed by a
 * seller holding none of it counting as the seller's (a listing can hold its token in escrow, and
 * the token still belongs to its seller for a marketplace's purposes). Burned tokens hold nothing.
 *
 * The holders are the collection's rows of `collection_holdings`, which triggers keep in every
 * writing transaction (migration 2026-12-17T1000): one index range per collection. Counting every
 * ownership row instead cost 0.55–0.73 s for the `top` ranking's field on the 1M chain
 * (docs/PERFORMANCE.md).
 */
export const holderCount = (collectionId: RawBuilder<unknown>): RawBuilder<number> =>
  sql<number>`(SELECT count(*)::int FROM collection_holdings h WHERE h.collection_id = ${collectionId})`;

/** holderCount of each of `collectionIds`; a collection without a `collections` row has no entry. */
export async function loadHolderCounts(
  db: Db,
  collectionIds: readonly string[],
): Promise<Map<string, number>> {
  if (collectionIds.length === 0) return new Map();
  const { rows } = await sql<{ id: string; holders: number }>`
    SELECT c.collection_id AS id, ${holderCount(sql`c.collection_id`)} AS holders
    FROM collections c
    WHERE c.collection_id = ANY(${[...collectionIds]}::text[])
  `.execute(db);
  return new Map(rows.map((r) => [r.id, r.holders]));
}

export interface LootboxRankingRow {
  lootboxId: number;
  collectionId: string;
  creator: string;
  collectionName: string;
  price: string;
  maxSupply: string;
  minted: string;
  createdAt: Date;
  mintStart: Date;
  mintEnd: Date | null;
}

const lootboxColumns = sql`
  lootbox_id AS "lootboxId", collection_id AS "collectionId", creator_address AS creator,
  collection_name AS "collectionName", price::text AS price, max_supply::text AS "maxSupply",
  minted::text AS minted, created_at AS "createdAt", mint_start AS "mintStart", mint_end AS "mintEnd"`;

/** Every lootbox, newest first (recently added). */
export async function loadLootboxesByCreation(db: Db): Promise<LootboxRankingRow[]> {
  const { rows } = await sql<LootboxRankingRow>`
    SELECT ${lootboxColumns} FROM lootboxes ORDER BY created_at DESC, lootbox_id DESC
  `.execute(db);
  return rows;
}

/** Lootboxes whose mint has not started at `now`, soonest first (upcoming). */
export async function loadUpcomingLootboxes(db: Db, now: Date): Promise<LootboxRankingRow[]> {
  const { rows } = await sql<LootboxRankingRow>`
    SELECT ${lootboxColumns} FROM lootboxes WHERE mint_start > ${now} ORDER BY mint_start, lootbox_id
  `.execute(db);
  return rows;
}

export interface RankingEntry {
  collectionId: string | null;
  lootboxId: number | null;
  score: number;
  metrics: Record<string, string | number | null>;
}

export interface RankingRun {
  computedAt: Date;
  windowStart: Date | null;
  windowEnd: Date | null;
  /**
   * Report the run's moves within the top N to the live feed (`ranking_changed`, in the same
   * transaction); absent for rankings the feed does not carry.
   */
  feedTop?: number;
}

/**
 * Replaces one ranking atomically: readers see the old list or the new one, never a mix. A run
 * computed earlier than the stored one is dropped, so a slow retry cannot roll a ranking back.
 * Returns false when it was dropped. With `feedTop`, the moves are appended to the feed last.
 */
export async function replaceRanking(
  db: Db,
  ranking: RankingName,
  entries: readonly RankingEntry[],
  run: RankingRun,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`mdq:ranking:${ranking}`}))`.execute(trx);
    const current = await trx
      .selectFrom('ranking_runs')
      .select('computed_at')
      .where('ranking', '=', ranking)
      .executeTakeFirst();
    if (current && current.computed_at.getTime() > run.computedAt.getTime()) return false;
    const before =
      run.feedTop === undefined
        ? []
        : await trx
            .selectFrom('ranking_snapshots')
            .select(['collection_id as collectionId', 'position'])
            .where('ranking', '=', ranking)
            .execute();
    await trx.deleteFrom('ranking_snapshots').where('ranking', '=', ranking).execute();
    await unnestInsert(
      trx,
      'ranking_snapshots',
      {
        ranking: 'text',
        position: 'integer',
        collection_id: 'text',
        lootbox_id: 'bigint',
        score: 'double precision',
        metrics: 'jsonb',
        computed_at: 'timestamptz',
      },
      entries.map((e, i) => ({
        ranking,
        position: i + 1,
        collection_id: e.collectionId,
        lootbox_id: e.lootboxId,
        score: e.score,
        metrics: e.metrics,
        computed_at: run.computedAt,
      })),
      '',
    );
    await trx
      .insertInto('ranking_runs')
      .values({
        ranking,
        computed_at: run.computedAt,
        window_start: run.windowStart,
        window_end: run.windowEnd,
        entries: entries.length,
      })
      .onConflict((oc) =>
        oc.column('ranking').doUpdateSet((eb) => ({
          computed_at: eb.ref('excluded.computed_at'),
          window_start: eb.ref('excluded.window_start'),
          window_end: eb.ref('excluded.window_end'),
          entries: eb.ref('excluded.entries'),
        })),
      )
      .execute();
    if (run.feedTop !== undefined) {
      const after = entries.map((e, i) => ({
        collectionId: e.collectionId,
        position: i + 1,
        score: e.score,
      }));
      await appendRankingChanges(trx, {
        ranking,
        top: run.feedTop,
        windowStart: run.windowStart,
        computedAt: run.computedAt,
        changes: rankingChanges(before, after, run.feedTop),
      });
    }
    return true;
  });
}

export interface StoredRankingEntry extends RankingEntry {
  position: number;
}

/** One stored ranking in order (tests and tools; the API pages it with its own query). */
export async function readRanking(db: Db, ranking: RankingName): Promise<StoredRankingEntry[]> {
  const rows = await db
    .selectFrom('ranking_snapshots')
    .select(['position', 'collection_id', 'lootbox_id', 'score', 'metrics'])
    .where('ranking', '=', ranking)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({
    position: r.position,
    collectionId: r.collection_id,
    lootboxId: r.lootbox_id,
    score: r.score,
    metrics: r.metrics,
  }));
}
