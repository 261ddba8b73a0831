import { type Kysely, sql } from 'kysely';
import { functionSql } from '../functions';
import { statementTriggers } from '../statement-triggers';

/*
 * The rankings key on ranking_snapshots alone (issue #35; docs/PERFORMANCE.md, "What the counters
 * retired for nothing"). A ranking page showed its collections' name, creator, URI and lootbox by a
 * join with `collections`, so its cached answers keyed on that table's counter, which a moving chain
 * moves every block (owner counts): the rankings retired at every block though nothing they show had
 * changed. Each ranked row now carries those four columns: copied as the row is written
 * (ranking_identity_of_row) and rewritten, in the writing transaction, where a collection's own
 * changed (ranking_identity_on_collections). A write to collections that changed none of them
 * updates no ranked row and, a statement that writes no row moving no counter (2026-12-13T1000),
 * leaves the rankings cached.
 */

const TRIGGERS = statementTriggers(
  'collections',
  'collections_ranking_identity',
  'ranking_identity_on_collections',
  'ranking_identity_on_collections',
);

const UP = (): string[] => [
  `ALTER TABLE ranking_snapshots ADD COLUMN IF NOT EXISTS collection_name text,
     ADD COLUMN IF NOT EXISTS creator_address text, ADD COLUMN IF NOT EXISTS uri text,
     ADD COLUMN IF NOT EXISTS collection_lootbox_id bigint`,
  // The ranked rows of a collection, for the rewrite when it changes.
  'CREATE INDEX IF NOT EXISTS ranking_snapshots_collection ON ranking_snapshots (collection_id)',
  `UPDATE ranking_snapshots rs
      SET collection_name = c.collection_name, creator_address = c.creator_address, uri = c.uri,
          collection_lootbox_id = c.lootbox_id
     FROM collections c WHERE c.collection_id = rs.collection_id`,
  functionSql('ranking_identity_of_row'),
  functionSql('ranking_identity_on_collections'),
  `CREATE OR REPLACE TRIGGER ranking_snapshots_identity BEFORE INSERT OR UPDATE OF collection_id
     ON ranking_snapshots FOR EACH ROW EXECUTE FUNCTION ranking_identity_of_row()`,
  ...TRIGGERS.map((t) => t.create),
];

const DOWN = [
  ...TRIGGERS.map((t) => t.drop),
  'DROP TRIGGER IF EXISTS ranking_snapshots_identity ON ranking_snapshots',
  'DROP FUNCTION IF EXISTS ranking_identity_on_collections()',
  'DROP FUNCTION IF EXISTS ranking_identity_of_row()',
  'DROP INDEX IF EXISTS ranking_snapshots_collection',
  `ALTER TABLE ranking_snapshots DROP COLUMN IF EXISTS collection_name, DROP COLUMN IF EXISTS creator_address,
     DROP COLUMN IF EXISTS uri, DROP COLUMN IF EXISTS collection_lootbox_id`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP()) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
