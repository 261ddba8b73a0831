import { sql } from '@mdq/db';
import { createTestDatabase, stateFingerprint, type TestDatabase, traitCountsDrift } from '@mdq/db/testing';
import { noopNotifier } from '@mdq/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullnodeSource, runIndexer } from '../src/index';
import { createIndexedDatabase, devnetDecoder, type IndexedDatabase } from '../src/testing';

/*
 * The trait counts Postgres keeps in the batch's own transaction (trait_value_counts,
 * collection_trait_totals) must equal a fresh count after any run of the indexer: a first pass,
 * a replay of the same range, and two overlapping runs with other batch sizes. The devnet chain
 * mints tokens with traits, changes their properties, moves and burns them.
 */
describe('trait counts kept by the database', () => {
  let indexed: IndexedDatabase;
  const extra: TestDatabase[] = [];
  const run = (db: TestDatabase, batchSize: number, from?: number, to?: number) =>
    runIndexer({
      db: db.db,
      source: fullnodeSource(indexed.devnet.url),
      decode: devnetDecoder(indexed.devnet),
      notifier: noopNotifier,
      batchSize,
      ...(from === undefined ? { untilCaughtUp: true } : { from, to }),
    });

  beforeAll(async () => {
    indexed = await createIndexedDatabase({ seed: 11, preset: 'tiny', batchSize: 50 });
  }, 300_000);
  afterAll(async () => {
    for (const db of extra) await db.drop();
    await indexed?.close();
  });

  it('equal a fresh count after indexing a devnet chain with burns', async () => {
    const { rows } = await sql<{ values: number; burned: number; live: number }>`
      SELECT (SELECT count(*)::int FROM trait_value_counts WHERE live_count > 0) AS values,
             (SELECT count(*)::int FROM tokens t WHERE is_burned
                AND EXISTS (SELECT 1 FROM token_attributes a WHERE a.token_data_id = t.token_data_id)) AS burned,
             (SELECT sum(live_tokens)::int FROM collection_trait_totals) AS live`.execute(indexed.db);
    // The chain exercises what the counts must follow: traits, and burned tokens that carry some.
    expect(rows[0]?.values).toBeGreaterThan(10);
    expect(rows[0]?.burned).toBeGreaterThan(0);
    expect(rows[0]?.live).toBeGreaterThan(0);
    expect(await traitCountsDrift(indexed.db)).toEqual([]);
  });

  it('stay exact when the same range is ingested again', async () => {
    const before = await stateFingerprint(indexed.db);
    await run(indexed, 7, 0, Number(indexed.stats.lastVersion));
    expect(await stateFingerprint(indexed.db)).toEqual(before);
    expect(await traitCountsDrift(indexed.db)).toEqual([]);
  });

  it('are the same after two overlapping runs with other batch sizes', async () => {
    const test = await createTestDatabase();
    extra.push(test);
    const last = Number(indexed.stats.lastVersion);
    await run(test, 13, 0, Math.floor(last * 0.6));
    await run(test, 29, Math.floor(last * 0.3), last);
    expect(await traitCountsDrift(test.db)).toEqual([]);
    const counts = (db: TestDatabase) =>
      sql<{ k: string }>`
      SELECT format('%s/%s/%s=%s', collection_id, trait_type, value, live_count) AS k FROM trait_value_counts
       WHERE live_count > 0 ORDER BY 1`.execute(db.db);
    expect((await counts(test)).rows).toEqual((await counts(indexed)).rows);
  });

  it('follow direct writes of every kind: moves, unburns, deletes, updates and a truncate', async () => {
    const db = indexed.db;
    const { rows } = await sql<{ id: string; other: string }>`
      SELECT t.token_data_id AS id,
             (SELECT collection_id FROM collections WHERE collection_id <> t.collection_id LIMIT 1) AS other
        FROM tokens t WHERE NOT is_burned
         AND EXISTS (SELECT 1 FROM token_attributes a WHERE a.token_data_id = t.token_data_id)
       ORDER BY 1 LIMIT 3`.execute(db);
    const [a, b, c] = rows;
    if (!a || !b || !c) throw new Error('the chain has fewer than three live tokens with traits');
    await sql`UPDATE tokens SET collection_id = ${a.other} WHERE token_data_id = ${a.id}`.execute(db);
    await sql`UPDATE tokens SET is_burned = NOT is_burned WHERE token_data_id IN (${b.id}, ${c.id})`.execute(
      db,
    );
    await sql`UPDATE token_attributes SET value = value || '-changed' WHERE token_data_id = ${c.id}`.execute(
      db,
    );
    await sql`UPDATE tokens SET is_burned = false WHERE is_burned AND token_data_id <> ${b.id}`.execute(db);
    expect(await traitCountsDrift(db)).toEqual([]);
    await sql`DELETE FROM tokens WHERE token_data_id = ${a.id}`.execute(db);
    await sql`DELETE FROM token_attributes WHERE token_data_id = ${b.id}`.execute(db);
    expect(await traitCountsDrift(db)).toEqual([]);
    await sql`TRUNCATE token_attributes`.execute(db);
    expect(await traitCountsDrift(db)).toEqual([]);
  });
});
