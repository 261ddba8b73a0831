import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';

/** How long each time-grown table keeps its rows (`@mdq/config` RetentionConfig); 0 days keeps all. */
export interface RetentionRules {
  hourlySnapshotsDays: number;
  rankingChangesDays: number;
  webhookDeliveriesDays: number;
  exportUsageDays: number;
  /** Rows per DELETE statement. */
  batchRows: number;
}

/** Rows removed per table by one enforcement. */
export interface RetentionReport {
  collectionSnapshots: number;
  rankingChanges: number;
  webhookDeliveries: number;
  exportUsage: number;
}

/** The newest deliveries of an endpoint that always stay: the most the delivery listing shows. */
export const KEPT_DELIVERIES_PER_ENDPOINT = 100;

const DAY = 86_400_000;

/** Midnight UTC `days` days before `now`'s day: whole UTC days are thinned, never part of one. */
function dayCutoff(now: Date, days: number): Date {
  return new Date(Math.floor(now.getTime() / DAY) * DAY - days * DAY);
}

/** One DELETE of at most `batch` rows older than `cutoff`. */
type DeleteStatement = (cutoff: Date, batch: number) => RawBuilder<unknown>;

/*
 * Each statement deletes at most `batch` rows, in its own transaction: a long history is removed
 * in short steps that hold no lock for long and give autovacuum and the WAL a steady pace, and a
 * job stopped midway has removed whole batches.
 */
async function deleteInBatches(
  db: Db,
  batch: number,
  statement: DeleteStatement,
  cutoff: Date,
): Promise<number> {
  let total = 0;
  for (;;) {
    const removed = Number((await statement(cutoff, batch).execute(db)).numAffectedRows ?? 0);
    total += removed;
    if (removed < batch) return total;
  }
}

/**
 * Collection snapshots older than the hourly retention thin to the last one of each UTC day per
 * collection: the floor a `1d` collection-history bucket reports (the last snapshot before the
 * bucket's end), so daily history stays exact forever; hourly buckets are exact within the window.
 * The kept row is the last of its day however often this runs.
 */
const thinCollectionSnapshots: DeleteStatement = (cutoff, batch) => sql`
      DELETE FROM collection_snapshots s USING (
        SELECT collection_id, snapshot_at FROM (
          SELECT collection_id, snapshot_at,
                 row_number() OVER (
                   PARTITION BY collection_id, date_trunc('day', snapshot_at, 'UTC') ORDER BY snapshot_at DESC
                 ) AS rn
            FROM collection_snapshots WHERE snapshot_at < ${cutoff}
        ) x WHERE x.rn > 1 LIMIT ${batch}
      ) d
      WHERE s.collection_id = d.collection_id AND s.snapshot_at = d.snapshot_at`;

/** `ranking_changed` feed events computed before the retention window. */
const pruneRankingChanges: DeleteStatement = (cutoff, batch) => sql`
      DELETE FROM collection_ranking_changes WHERE ctid = ANY(ARRAY(
        SELECT ctid FROM collection_ranking_changes WHERE computed_at < ${cutoff} LIMIT ${batch}))`;

/** Delivery attempts before the window, except each endpoint's newest KEPT_DELIVERIES_PER_ENDPOINT. */
const pruneWebhookDeliveries: DeleteStatement = (cutoff, batch) => sql`
      DELETE FROM webhook_deliveries WHERE delivery_id = ANY(ARRAY(
        SELECT d.delivery_id FROM webhook_deliveries d
         WHERE d.attempted_at < ${cutoff}
           AND d.delivery_id < (
             SELECT k.delivery_id FROM webhook_deliveries k WHERE k.endpoint_id = d.endpoint_id
              ORDER BY k.delivery_id DESC OFFSET ${KEPT_DELIVERIES_PER_ENDPOINT - 1} LIMIT 1)
         LIMIT ${batch}))`;

/** Export quota counters of past days (only today's counts toward the quota). */
const pruneExportUsage: DeleteStatement = (cutoff, batch) => sql`
      DELETE FROM export_usage WHERE ctid = ANY(ARRAY(
        SELECT ctid FROM export_usage WHERE day < ${cutoff.toISOString().slice(0, 10)}::date LIMIT ${batch}))`;

/**
 * Enforces every table's retention at `now` (the worker's hourly `retention` job). Tables that grow
 * with the chain, current-state tables and the inventory snapshots (pruned to the API's buckets by
 * the inventory job) are not touched: docs/RELIABILITY.md lists each table's rule.
 */
export async function enforceRetention(db: Db, now: Date, rules: RetentionRules): Promise<RetentionReport> {
  const run = (days: number, cutoff: Date, statement: DeleteStatement) =>
    days > 0 ? deleteInBatches(db, rules.batchRows, statement, cutoff) : Promise.resolve(0);
  const before = (days: number) => new Date(now.getTime() - days * DAY);
  return {
    collectionSnapshots: await run(
      rules.hourlySnapshotsDays,
      dayCutoff(now, rules.hourlySnapshotsDays),
      thinCollectionSnapshots,
    ),
    rankingChanges: await run(
      rules.rankingChangesDays,
      before(rules.rankingChangesDays),
      pruneRankingChanges,
    ),
    webhookDeliveries: await run(
      rules.webhookDeliveriesDays,
      before(rules.webhookDeliveriesDays),
      pruneWebhookDeliveries,
    ),
    exportUsage: await run(rules.exportUsageDays, dayCutoff(now, rules.exportUsageDays), pruneExportUsage),
  };
}
