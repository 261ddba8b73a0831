/**
 * The bare-SQL baselines the worker's figures are divided by, measured on the same database in the
 * same run:
 *  - rankings: the window aggregates the collection rankings start from (volume, sales and distinct
 *    buyers per collection with a percentile over volume), for the 24 h, 7 d and 30 d windows;
 *  - rarity: OpenRarity's input, one GROUP BY (collection, trait type, value) count.
 */
import { type Db, sql } from '@mdq/db';

const DAY = 86_400_000;

export interface WorkerBaselines {
  rankingsMs: number;
  traitCountsMs: number;
}

export async function rankingBaselines(db: Db, now: Date): Promise<WorkerBaselines> {
  const t0 = performance.now();
  for (const days of [1, 7, 30]) {
    await sql`
      SELECT collection_id, sum(price) AS volume, count(*) AS sales, count(DISTINCT buyer) AS buyers,
             percent_rank() OVER (ORDER BY sum(price)) AS volume_percentile
      FROM marketplace_activities
      WHERE kind IN ('fill_listing', 'fill_token_offer', 'fill_collection_offer')
        AND transaction_timestamp >= ${new Date(now.getTime() - days * DAY)} AND transaction_timestamp <= ${now}
      GROUP BY collection_id`.execute(db);
  }
  const rankingsMs = performance.now() - t0;
  return { rankingsMs, traitCountsMs: await traitCountsBaselineMs(db) };
}

/** OpenRarity's input counted by one bare GROUP BY (collection, trait type, value), in ms. */
export async function traitCountsBaselineMs(db: Db): Promise<number> {
  const t0 = performance.now();
  await sql`SELECT collection_id, trait_type, value, count(*) FROM token_attributes GROUP BY 1, 2, 3`.execute(
    db,
  );
  return performance.now() - t0;
}
