import { ConfigError } from './config-error';
import { type Env, readInt } from './read-env';

/**
 * How long the tables that grow with time rather than with the chain keep their rows (issue #37);
 * the worker's hourly `retention` job enforces them. 0 keeps a table's rows forever. The rule of
 * each table, and why it never removes what the API promises: docs/RELIABILITY.md, "Retention".
 */
export interface RetentionConfig {
  /** Hourly collection snapshots kept this many days; older ones thin to the last of each UTC day. */
  hourlySnapshotsDays: number;
  /** `ranking_changed` feed events kept this many days. */
  rankingChangesDays: number;
  /** Webhook delivery log kept this many days (each endpoint's newest 100 always stay). */
  webhookDeliveriesDays: number;
  /** Export quota counters kept this many days (only today's counts toward the quota). */
  exportUsageDays: number;
  /** Rows one DELETE removes: short transactions, so the job never holds locks or bloats WAL for long. */
  batchRows: number;
}

export const RETENTION_DEFAULTS: RetentionConfig = {
  hourlySnapshotsDays: 90,
  rankingChangesDays: 30,
  webhookDeliveriesDays: 30,
  exportUsageDays: 7,
  batchRows: 5000,
};

/**
 * The rankings' 30-day windows read a collection's hourly floor at the window start, so hourly
 * snapshots must outlive the longest window by a day.
 */
const MIN_HOURLY_SNAPSHOT_DAYS = 31;

export function loadRetentionConfig(env: Env): RetentionConfig {
  const d = RETENTION_DEFAULTS;
  const days = (name: string, fallback: number) => readInt(env, name, fallback, 0, 36_500);
  const hourlySnapshotsDays = days('MDQ_RETENTION_HOURLY_SNAPSHOTS_DAYS', d.hourlySnapshotsDays);
  if (hourlySnapshotsDays > 0 && hourlySnapshotsDays < MIN_HOURLY_SNAPSHOT_DAYS) {
    throw new ConfigError(
      `MDQ_RETENTION_HOURLY_SNAPSHOTS_DAYS must be 0 (keep) or at least ${MIN_HOURLY_SNAPSHOT_DAYS}: the 30-day windows read hourly floors (got "${hourlySnapshotsDays}")`,
    );
  }
  return {
    hourlySnapshotsDays,
    rankingChangesDays: days('MDQ_RETENTION_RANKING_CHANGES_DAYS', d.rankingChangesDays),
    webhookDeliveriesDays: days('MDQ_RETENTION_WEBHOOK_DELIVERIES_DAYS', d.webhookDeliveriesDays),
    exportUsageDays: readInt(env, 'MDQ_RETENTION_EXPORT_USAGE_DAYS', d.exportUsageDays, 1, 36_500),
    batchRows: readInt(env, 'MDQ_RETENTION_BATCH_ROWS', d.batchRows, 100, 1_000_000),
  };
}
