import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/index';
import { refreshPlannerStats } from '../src/ingest';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/*
 * The indexer analyzes the tables it fills once they have changed by a fifth since their last
 * statistics (planner-stats.ts): a backfill must not depend on autovacuum for the plans of its
 * per-batch probes.
 */
describe('planner statistics of the written tables', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  const analyzedAt = async (table: string) => {
    const { rows } = await sql<{ at: Date | null }>`
      SELECT greatest(last_analyze, last_autoanalyze) AS at FROM pg_stat_user_tables WHERE relname = ${table}`.execute(
      test.db,
    );
    return rows[0]?.at ?? null;
  };

  // Table changes reach the statistics views when the writing session flushes them (within a second).
  const refreshUntil = async (wanted: (tables: string[]) => boolean): Promise<string[]> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const tables = await refreshPlannerStats(test.db);
      if (wanted(tables) || Date.now() > deadline) return tables;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  it('analyzes a table that grew, and gives the planner its size', async () => {
    await sql`
      INSERT INTO token_activities (transaction_version, event_index, kind, event_type, token_data_id,
                                    token_standard, collection_id, amount, transaction_timestamp)
      SELECT v, 0, 'mint', 'x', 'token-' || (v % 100), 'v2', 'collection', 1, now()
        FROM generate_series(1, 5000) v`.execute(test.db);
    const tables = await refreshUntil((t) => t.includes('token_activities'));
    expect(tables).toContain('token_activities');
    expect(await analyzedAt('token_activities')).not.toBeNull();
    const { rows } = await sql<{ n: number }>`
      SELECT n_distinct::float8 AS n FROM pg_stats WHERE tablename = 'token_activities' AND attname = 'token_data_id'`.execute(
      test.db,
    );
    expect(rows[0]?.n).toBe(100);
  });

  it('leaves alone a table that changed by less than a fifth since', async () => {
    const before = await analyzedAt('token_activities');
    await sql`
      INSERT INTO token_activities (transaction_version, event_index, kind, event_type, token_data_id,
                                    token_standard, collection_id, amount, transaction_timestamp)
      SELECT v, 0, 'mint', 'x', 'token-' || (v % 100), 'v2', 'collection', 1, now()
        FROM generate_series(5001, 5500) v`.execute(test.db);
    // Given time to see the new rows, it still finds nothing to do.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await refreshPlannerStats(test.db)).not.toContain('token_activities');
    expect(await analyzedAt('token_activities')).toEqual(before);
  });
});
