import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, migrateToLatest, startEmbeddedPostgres } from '../src/index';

describe('embedded Postgres', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('starts, migrates, stops, and starts again on the same data', { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mdq-embedded-'));
    dirs.push(dir);

    const first = await startEmbeddedPostgres(dir);
    const db = createDb(first.url, { max: 2 });
    await migrateToLatest(db);
    await db.insertInto('indexer_checkpoints').values({ name: 'kept', last_version: 42 }).execute();
    const { rows } = await sql<{ v: string }>`SELECT current_setting('server_version_num') AS v`.execute(db);
    expect(Number(rows[0]?.v)).toBeGreaterThanOrEqual(180000);
    await db.destroy();
    await first.stop();

    const second = await startEmbeddedPostgres(dir);
    const again = createDb(second.url, { max: 2 });
    const migrated = await migrateToLatest(again);
    expect(migrated.results).toEqual([]);
    const kept = await again.selectFrom('indexer_checkpoints').select('last_version').executeTakeFirst();
    expect(kept?.last_version).toBe(42);
    await again.destroy();
    await second.stop();
  });
});
