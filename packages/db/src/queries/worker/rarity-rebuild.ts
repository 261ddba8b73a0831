import { sql } from 'kysely';
import type { Db } from '../../database';

const TABLE = 'token_rarity';
const NEXT = 'token_rarity_rebuild';

/**
 * Replaces `token_rarity` by a table built in bulk: the rows of `rarity_ranked` (the collections
 * `ids`, just computed) and the stored rows of every other collection, written without indexes,
 * then the indexes built from the sorted rows, then swapped in under the old name. Index
 * maintenance row by row is what made a first computation slow: the table and its two indexes
 * (469k rows, 66-character keys) outgrow shared buffers, so each inserted row costs random page
 * reads and writes, where a build sorts once and writes each index page once.
 *
 * Readers keep reading the old table until the swap (this transaction holds a lock that only
 * excludes writers: another computation's rows wait and land in the new table); the swap itself
 * takes the table's exclusive lock for the few catalogue changes at the end. Indexes, the primary
 * key and triggers are recreated from the catalogue's own definitions of the old table, so a later
 * migration that adds one is carried over.
 */
export async function rebuildTokenRarity(trx: Db, ids: readonly string[], computedAt: Date): Promise<void> {
  await sql.raw(`LOCK TABLE ${TABLE} IN SHARE ROW EXCLUSIVE MODE`).execute(trx);
  const { rows: indexes } = await sql<{ name: string; definition: string; constraint: string | null }>`
    SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition, k.conname AS constraint
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    LEFT JOIN pg_constraint k ON k.conindid = i.indexrelid AND k.conrelid = i.indrelid AND k.contype = 'p'
    WHERE i.indrelid = ${TABLE}::regclass ORDER BY c.relname
  `.execute(trx);
  const { rows: triggers } = await sql<{ definition: string }>`
    SELECT pg_get_triggerdef(oid) AS definition FROM pg_trigger
    WHERE tgrelid = ${TABLE}::regclass AND NOT tgisinternal ORDER BY tgname
  `.execute(trx);
  await sql
    .raw(`CREATE TABLE ${NEXT} (LIKE ${TABLE} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE)`)
    .execute(trx);
  await sql`
    INSERT INTO ${sql.table(NEXT)} (token_data_id, collection_id, score, rank, trait_count, computed_at)
    SELECT token_data_id, collection_id, score, rank, k, ${computedAt} FROM rarity_ranked
    UNION ALL
    SELECT r.token_data_id, r.collection_id, r.score, r.rank, r.trait_count, r.computed_at
    FROM ${sql.table(TABLE)} r
    WHERE r.collection_id <> ALL(${ids}::text[])
      AND NOT EXISTS (SELECT 1 FROM rarity_ranked x WHERE x.token_data_id = r.token_data_id)
  `.execute(trx);
  await sql`SET LOCAL maintenance_work_mem = '256MB'`.execute(trx);
  for (const index of indexes) {
    await sql.raw(onRebuild(index.definition, index.name)).execute(trx);
  }
  await sql.raw(`LOCK TABLE ${TABLE} IN ACCESS EXCLUSIVE MODE`).execute(trx);
  await sql.raw(`DROP TABLE ${TABLE}`).execute(trx);
  await sql.raw(`ALTER TABLE ${NEXT} RENAME TO ${TABLE}`).execute(trx);
  for (const index of indexes) {
    await sql.raw(`ALTER INDEX ${rebuildName(index.name)} RENAME TO ${index.name}`).execute(trx);
    if (index.constraint !== null)
      await sql
        .raw(`ALTER TABLE ${TABLE} ADD CONSTRAINT ${index.constraint} PRIMARY KEY USING INDEX ${index.name}`)
        .execute(trx);
  }
  for (const trigger of triggers) await sql.raw(trigger.definition).execute(trx);
  // The statement triggers did not see the bulk insert: its write counter moves here (the API's
  // cached answers are keyed by it).
  await sql`SELECT read_version_bump(${TABLE})`.execute(trx);
  // Nor the per-collection counters (migration 2026-12-01T1000): the collections recomputed are
  // the ones whose rows changed (with those of the ranked rows, should a token have moved); the
  // other collections' rows were copied as they were.
  await sql`SELECT bump_collection_versions(${TABLE}, ${ids}::text[] || ARRAY(SELECT DISTINCT collection_id FROM rarity_ranked))`.execute(
    trx,
  );
  // Nor the kept totals per collection (migration 2026-12-16T1000): recounted from the new table,
  // only the collections whose count moved written.
  await sql`SELECT rarity_totals_rebuild()`.execute(trx);
  // And the planner gets the new table's statistics.
  await sql.raw(`ANALYZE ${TABLE}`).execute(trx);
}

function rebuildName(name: string): string {
  return `${name}_rebuild`;
}

/** An index definition of the old table (pg_get_indexdef), renamed and pointed at the new one. */
function onRebuild(definition: string, name: string): string {
  const match = /^CREATE (UNIQUE )?INDEX (\S+) ON (\S+) (USING .*)$/.exec(definition);
  if (!match || match[2] !== name) throw new Error(`unexpected index definition: ${definition}`);
  return `CREATE ${match[1] ?? ''}INDEX ${rebuildName(name)} ON ${NEXT} ${match[4]}`;
}
