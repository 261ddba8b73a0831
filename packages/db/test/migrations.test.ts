import { readdirSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_NAMES, migrateToLatest } from '../src/index';
import { createTestDatabase, type TestDatabase } from '../src/testing';

describe('migrations', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase({ migrate: false });
  });
  afterAll(() => test.drop());

  it('apply to an empty database and create every table', async () => {
    const result = await migrateToLatest(test.db);
    const statuses = result.results?.map((r) => r.status) ?? [];
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 'Success')).toBe(true);
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely%'
    `.execute(test.db);
    expect(tables.rows.map((r) => r.table_name).sort()).toEqual(
      [
        'active_listing_counts',
        'active_listing_grams',
        'active_listings',
        'api_keys',
        'chain_tip',
        'collection_change_outbox',
        'collection_floor_changes',
        'collection_holdings',
        'collection_offers',
        'collection_ranking_changes',
        'collection_rarity_marks',
        'collection_rarity_totals',
        'collection_snapshots',
        'collection_trait_totals',
        'collection_uri_cache',
        'collections',
        'export_usage',
        'failed_transactions',
        'indexer_checkpoints',
        'listings',
        'lootbox_purchases',
        'lootbox_reveals',
        'lootbox_revenue_days',
        'lootbox_tiers',
        'lootboxes',
        'marketplace_activities',
        'media_renders',
        'metadata_documents',
        'metadata_pending',
        'ranking_runs',
        'ranking_snapshots',
        'read_collection_versions',
        'read_versions',
        'social_signals',
        'table_handle_owners',
        'token_activities',
        'token_attributes',
        'token_name_stems',
        'token_offers',
        'token_ownerships',
        'token_pending_claims',
        'token_rarity',
        'tokens',
        'trait_value_counts',
        'trait_value_floors',
        'user_inventory_snapshots',
        'webhook_deliveries',
        'webhook_endpoints',
      ].sort(),
    );
  });

  it('are every file of the migrations folder, by file name, in order, each stamp once', () => {
    const files = readdirSync(new URL('../src/migrations/', import.meta.url))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.slice(0, -'.ts'.length));
    expect([...MIGRATION_NAMES]).toEqual([...files].sort());
    expect([...MIGRATION_NAMES]).toEqual([...MIGRATION_NAMES].sort());
    // Landed before this rule and frozen (renaming would make applied databases disagree).
    const shared = new Set(['2026-11-23T1000', '2026-11-23T1100', '2026-11-30T1000']);
    const stamps = MIGRATION_NAMES.map((name) => name.slice(0, '2026-11-22T0000'.length));
    const repeated = stamps.filter((stamp, i) => stamps.indexOf(stamp) !== i && !shared.has(stamp));
    expect(repeated).toEqual([]);
  });

  it('re-apply as a no-op', async () => {
    const before = await schemaFingerprint(test);
    const again = await migrateToLatest(test.db);
    expect(again.results).toEqual([]);
    expect(await schemaFingerprint(test)).toEqual(before);
  });

  it('keeps u64 values exact and bigint versions as numbers', async () => {
    await test.db
      .insertInto('indexer_checkpoints')
      .values({ name: 'probe', last_version: 3_020_266_695 })
      .execute();
    const row = await test.db.selectFrom('indexer_checkpoints').selectAll().executeTakeFirstOrThrow();
    expect(row.last_version).toBe(3_020_266_695);
    const { rows } = await sql<{ v: string }>`SELECT '18446744073709551615'::numeric(20, 0) AS v`.execute(
      test.db,
    );
    expect(rows[0]?.v).toBe('18446744073709551615');
  });
});

async function schemaFingerprint(test: TestDatabase): Promise<string[]> {
  const { rows } = await sql<{ d: string }>`
    SELECT indexname || ':' || indexdef AS d FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL SELECT table_name || '.' || column_name || ':' || data_type FROM information_schema.columns
      WHERE table_schema = 'public'
    ORDER BY 1
  `.execute(test.db);
  return rows.map((r) => r.d);
}
