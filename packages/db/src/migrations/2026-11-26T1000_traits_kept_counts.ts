import { type Kysely, sql } from 'kysely';
import { functionSql } from '../functions';

/*
 * Trait counts kept by the database itself, in the writing transaction (issues #20 and #22):
 * - trait_value_counts: per (collection, trait type, value), how many attribute rows belong to a
 *   live token (one that exists and is not burned). It is exactly what token/traits,
 *   collection-trait-floors and OpenRarity counted on every request or run:
 *   count(*) FROM token_attributes JOIN tokens … WHERE NOT is_burned GROUP BY (collection_id, trait_type, value).
 *   A value whose live tokens are all gone keeps a row with 0 (readers skip it): deleting it would
 *   cost a statement per write for rows that are few.
 * - collection_trait_totals: per collection, its live tokens (tokens.collection_id, not burned), and
 *   `changed_version`, the id of the last transaction that changed anything rarity reads for it (an
 *   attribute row, a token's burn flag or collection, a token added or removed). The full rarity
 *   recompute skips a collection whose marker (collection_rarity_marks) equals it. Transaction ids
 *   never repeat, so "differs" is "changed since", whatever order writers commit in.
 * - collection_rarity_marks: the changed_version each collection's rarity was last computed from
 *   (written by the worker, apart from the indexer's rows so the two never wait on each other).
 *
 * Statement-level triggers with transition tables keep the counts, so exactly-once stays exact with
 * no change to the batch code: a replayed batch writes no row (the ingest writers skip facts that
 * repeat what is stored), so it changes no count; and every other writer (tests, benches, repairs)
 * keeps them too. Each trigger turns its statement's rows into one array of deltas applied by
 * trait_counts_apply in key order (concurrent writers lock rows in the same order). Deltas use the
 * other table's state after the statement, which is right as long as one statement does not
 * change both tables (no writer does). TRUNCATE of either table recounts everything.
 *
 * No read-version trigger on these tables: they only change inside statements on tokens and
 * token_attributes, whose own triggers already move the read version in the same transaction.
 */

/** Each trigger once: the table, what it fires on, the transition tables it hands over, its function. */
const TRIGGERS = (
  [
    ['token_attributes', 'trait_counts_on_attributes'],
    ['tokens', 'trait_counts_on_tokens'],
  ] as const
).flatMap(([table, fn]) =>
  (
    [
      ['insert', 'REFERENCING NEW TABLE AS new_rows', fn],
      ['update', 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows', fn],
      ['delete', 'REFERENCING OLD TABLE AS old_rows', fn],
      ['truncate', '', 'trait_counts_on_truncate'],
    ] as const
  ).map(([event, referencing, runs]) => ({
    create: `CREATE OR REPLACE TRIGGER ${table}_counts_${event} AFTER ${event.toUpperCase()} ON ${table}
       ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${runs}()`,
    drop: `DROP TRIGGER IF EXISTS ${table}_counts_${event} ON ${table}`,
  })),
);

/** A function, not a list: the function files are read when the migration runs, not on import. */
const UP = (): string[] => [
  `CREATE TABLE IF NOT EXISTS trait_value_counts (
    collection_id text NOT NULL,
    trait_type text NOT NULL,
    value text NOT NULL,
    live_count integer NOT NULL,
    PRIMARY KEY (collection_id, trait_type, value)
  )`,
  `CREATE TABLE IF NOT EXISTS collection_trait_totals (
    collection_id text PRIMARY KEY,
    live_tokens integer NOT NULL,
    changed_version bigint NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS collection_rarity_marks (
    collection_id text PRIMARY KEY,
    computed_from bigint NOT NULL
  )`,
  // A change to the counts: trait_type NULL is a token entering (+1) or leaving (-1) the live
  // tokens of collection_id; otherwise one live attribute row of (collection_id, trait_type, value).
  `DO $$ BEGIN
     CREATE TYPE trait_count_delta AS (collection_id text, trait_type text, value text, delta integer);
   EXCEPTION WHEN duplicate_object THEN NULL; END $$`,
  functionSql('trait_counts_apply'),
  functionSql('trait_counts_rebuild'),
  functionSql('trait_counts_on_truncate'),
  functionSql('trait_counts_on_attributes'),
  functionSql('trait_counts_on_tokens'),
  ...TRIGGERS.map((t) => t.create),
  'SELECT trait_counts_rebuild()',
];

const DOWN = [
  ...TRIGGERS.map((t) => t.drop),
  'DROP FUNCTION IF EXISTS trait_counts_on_tokens()',
  'DROP FUNCTION IF EXISTS trait_counts_on_attributes()',
  'DROP FUNCTION IF EXISTS trait_counts_on_truncate()',
  'DROP FUNCTION IF EXISTS trait_counts_rebuild()',
  'DROP FUNCTION IF EXISTS trait_counts_apply(trait_count_delta[])',
  'DROP TYPE IF EXISTS trait_count_delta',
  'DROP TABLE IF EXISTS collection_rarity_marks',
  'DROP TABLE IF EXISTS collection_trait_totals',
  'DROP TABLE IF EXISTS trait_value_counts',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP()) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
