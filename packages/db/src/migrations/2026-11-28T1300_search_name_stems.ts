import { type Kysely, sql } from 'kysely';
import { functionSql } from '../functions';

/*
 * Token search from name stems (issues #20 and #22; docs/PERFORMANCE.md, "Search from name stems").
 * A token's stem is its lowercased name without the digits that end it ("Shadow Dragon #12" →
 * "shadow dragon #"): the name is always its stem followed by digits. Names on chain are mostly
 * "<stem> #<number>", so stems are few (46 for the 46k tokens of the 100k devnet chain). The typo-
 * tolerant token search finds the stems that resemble or contain the text in this small table, and
 * reads their tokens as ranges of the lower(name) btree (tokens_name_lower_order), in its order
 * (queries/api/search.ts). The GiST trigram index over every token name that it replaces cost ~65%
 * of the tokens upsert time during ingestion (issue #20); it is dropped. (The GIN tokens_name_trgm
 * was dropped by 2026-11-25T1200; nothing else reads a trigram index of tokens.token_name.)
 *
 * live_count is the number of live (not burned) tokens with that stem, kept exact by statement-level
 * triggers with transition tables, like the trait counts (2026-11-26T1000): every writer keeps it
 * (indexer, tests, repairs), in the writing transaction. A rename moves the token from its old stem
 * to its new one, a burn takes it out; a replayed batch writes no token row (the ingest writers skip
 * facts that repeat what is stored), or rewrites one with the same stem and burn flag, so it changes
 * no count. A stem whose live tokens are all gone is deleted (only a statement that renames or burns
 * pays that DELETE), so the table is exactly the live stems, whatever the batch sizes that built it
 * (the exactly-once tests' state fingerprint compares it). TRUNCATE of tokens recounts.
 *
 * The stems' GIN trigram index serves `%` (similar) and LIKE '%text%' (contains) on the stems.
 */

/** Each trigger once: what it fires on and the transition tables it hands over. */
const TRIGGERS = (
  [
    ['insert', 'REFERENCING NEW TABLE AS new_rows', 'token_name_stems_on_tokens'],
    ['update', 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows', 'token_name_stems_on_tokens'],
    ['delete', 'REFERENCING OLD TABLE AS old_rows', 'token_name_stems_on_tokens'],
    ['truncate', '', 'token_name_stems_on_truncate'],
  ] as const
).map(([event, referencing, runs]) => ({
  create: `CREATE OR REPLACE TRIGGER tokens_name_stems_${event} AFTER ${event.toUpperCase()} ON tokens
     ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${runs}()`,
  drop: `DROP TRIGGER IF EXISTS tokens_name_stems_${event} ON tokens`,
}));

/** A function, not a list: the function files are read when the migration runs, not on import. */
const UP = (): string[] => [
  functionSql('token_name_stem'),
  functionSql('text_prefix_upper'),
  `CREATE TABLE IF NOT EXISTS token_name_stems (
    stem text PRIMARY KEY,
    live_count integer NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS token_name_stems_trgm ON token_name_stems USING gin (stem gin_trgm_ops)',
  functionSql('token_name_stems_apply'),
  functionSql('token_name_stems_rebuild'),
  functionSql('token_name_stems_on_truncate'),
  functionSql('token_name_stems_on_tokens'),
  ...TRIGGERS.map((t) => t.create),
  'SELECT token_name_stems_rebuild()',
  // Statistics now, so the first searches are planned for a table of this size, not a default guess.
  'ANALYZE token_name_stems',
  'DROP INDEX IF EXISTS tokens_name_trgm_gist',
];

const DOWN = [
  `CREATE INDEX IF NOT EXISTS tokens_name_trgm_gist
     ON tokens USING gist (token_name gist_trgm_ops(siglen = 256)) WHERE NOT is_burned`,
  ...TRIGGERS.map((t) => t.drop),
  'DROP FUNCTION IF EXISTS token_name_stems_on_tokens()',
  'DROP FUNCTION IF EXISTS token_name_stems_on_truncate()',
  'DROP FUNCTION IF EXISTS token_name_stems_rebuild()',
  'DROP FUNCTION IF EXISTS token_name_stems_apply(text[], integer[])',
  'DROP TABLE IF EXISTS token_name_stems',
  'DROP FUNCTION IF EXISTS token_name_stem(text)',
  'DROP FUNCTION IF EXISTS text_prefix_upper(text)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP()) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
