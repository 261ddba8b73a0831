import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addExportRows, exportRowsUsed } from '../src/export';
import { listWebhookDeliveries } from '../src/feed';
import { createApiKey } from '../src/index';
import { collectionHistory } from '../src/read';
import { createTestDatabase, type TestDatabase } from '../src/testing';
import { enforceRetention, KEPT_DELIVERIES_PER_ENDPOINT } from '../src/worker';

/*
 * Each time-grown table with rows on both sides of its retention, and the API's answers over them
 * read before and after: the rows past retention go, and every answer the API promises is the same
 * (daily collection history over the whole range, hourly history within the window, each webhook
 * endpoint's delivery listing at its largest limit, today's export quota). A small batch makes
 * every table take several DELETE statements.
 */
const NOW = new Date('2026-06-01T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const rules = {
  hourlySnapshotsDays: 31,
  rankingChangesDays: 30,
  webhookDeliveriesDays: 30,
  exportUsageDays: 7,
  batchRows: 7,
};
// Midnight UTC 31 days before NOW's day: hourly snapshots before it thin to one per day.
const SNAPSHOT_CUTOFF = Date.parse('2026-05-01T00:00:00Z');

let t: TestDatabase;

const count = async (table: string) =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(t.db)).rows[0]?.n);

beforeAll(async () => {
  t = await createTestDatabase();
  const { db } = t;
  // 40 days of hourly snapshots, a floor that moves every hour.
  await sql`INSERT INTO collection_snapshots (collection_id, snapshot_at, floor_price, holder_count, listed_count, current_supply)
            SELECT 'c1', ${NOW}::timestamptz - make_interval(hours => h), 1000 + h, 1, 1, 10
              FROM generate_series(0, 40 * 24 - 1) AS h`.execute(db);
  // Ranking changes 40 and 10 days old.
  for (const [i, ageDays] of [40, 40, 10].entries()) {
    const at = new Date(NOW.getTime() - ageDays * DAY);
    await sql`INSERT INTO collection_ranking_changes (transaction_version, event_index, ranking, collection_id, rank,
                previous_rank, score, top_n, window_start, computed_at, transaction_timestamp)
              VALUES (${100 + i}, 0, 'trending', 'c1', 1, 2, 0.5, 10, NULL, ${at}, ${at})`.execute(db);
  }
  // Endpoint a: 150 deliveries, all 60 days old. Endpoint b: 120 old then 5 recent.
  const { keyId } = await createApiKey(db, { name: 'retention' });
  for (const [endpoint, old, recent] of [
    ['a', 150, 0],
    ['b', 120, 5],
  ] as const) {
    await sql`INSERT INTO webhook_endpoints (endpoint_id, key_id, url, secret, cursor_version, cursor_event_index)
              VALUES (${endpoint}, ${keyId}, 'https://example.com/hook', 's', 0, 0)`.execute(db);
    await sql`INSERT INTO webhook_deliveries (endpoint_id, event_id, attempted_at, status_code, ok)
              SELECT ${endpoint}, 'e' || i, ${NOW}::timestamptz - make_interval(days => CASE WHEN i <= ${old} THEN 60 ELSE 1 END), 200, true
                FROM generate_series(1, ${old + recent}) AS i ORDER BY i`.execute(db);
  }
  // Export quota: today, 3 and 10 days ago.
  for (const ageDays of [0, 3, 10])
    await addExportRows(db, keyId, 5 + ageDays, new Date(NOW.getTime() - ageDays * DAY));
});
afterAll(async () => {
  await t.drop();
});

describe('retention', () => {
  it('removes rows past retention and keeps every answer the API promises', async () => {
    const { db } = t;
    const from = new Date(NOW.getTime() - 40 * DAY);
    const hourlyFrom = new Date(SNAPSHOT_CUTOFF);
    const answers = async () => ({
      daily: await collectionHistory(db, 'c1', '1d', from, NOW, false),
      hourly: await collectionHistory(db, 'c1', '1h', hourlyFrom, NOW, false),
      a: await listWebhookDeliveries(db, 'a', KEPT_DELIVERIES_PER_ENDPOINT),
      b: await listWebhookDeliveries(db, 'b', KEPT_DELIVERIES_PER_ENDPOINT),
      quota: await exportRowsUsed(
        db,
        (await db.selectFrom('api_keys').select('key_id').executeTakeFirstOrThrow()).key_id,
        NOW,
      ),
    });
    const before = await answers();
    const snapshotsBefore = await count('collection_snapshots');

    const report = await enforceRetention(db, NOW, rules);

    // Snapshots: every hourly row from the cutoff on, and one per UTC day before it (the last).
    const hoursKept = (NOW.getTime() - SNAPSHOT_CUTOFF) / HOUR + 1;
    const { rows: oldDays } = await sql<{ day: string; at: Date }>`
      SELECT date_trunc('day', snapshot_at, 'UTC')::text AS day, snapshot_at AS at FROM collection_snapshots
       WHERE snapshot_at < ${new Date(SNAPSHOT_CUTOFF)} ORDER BY snapshot_at`.execute(db);
    expect(await count('collection_snapshots')).toBe(hoursKept + oldDays.length);
    expect(new Set(oldDays.map((r) => r.day)).size).toBe(oldDays.length);
    for (const row of oldDays) expect(new Date(row.at).getUTCHours()).toBe(23);
    expect(report.collectionSnapshots).toBe(snapshotsBefore - (await count('collection_snapshots')));

    // Ranking changes: the two 40-day-old ones.
    expect(report.rankingChanges).toBe(2);
    expect(await count('collection_ranking_changes')).toBe(1);

    // Deliveries: a keeps its newest 100, b its 5 recent plus the 95 newest old ones.
    expect(report.webhookDeliveries).toBe(50 + 25);
    expect(await count('webhook_deliveries')).toBe(2 * KEPT_DELIVERIES_PER_ENDPOINT);

    // Export quota: the day 10 days ago.
    expect(report.exportUsage).toBe(1);
    expect(await count('export_usage')).toBe(2);

    expect(await answers()).toEqual(before);
    // Enforcing again removes nothing more.
    expect(await enforceRetention(db, NOW, rules)).toEqual({
      collectionSnapshots: 0,
      rankingChanges: 0,
      webhookDeliveries: 0,
      exportUsage: 0,
    });
  });
});
