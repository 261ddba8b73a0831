import { type Kysely, sql } from 'kysely';

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

const UP = [
  // Digits are ASCII digits only: a name ending in other numerals keeps them in its stem.
  `CREATE OR REPLACE FUNCTION token_name_stem(name text) RETURNS text
     LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT regexp_replace(lower(name), '[0-9]+$', '') $$`,
  // The least text above every text that starts with p, in byte order (text_pattern_ops, ~<~): p
  // with its last character replaced by the next code point (none lies between U+D7FF and U+E000
  // in UTF-8), dropping trailing U+10FFFF. A prefix search reads [p, this) of a lower(name) btree
  // with parameters, so a prepared statement's generic plan bounds the range, which LIKE 'p%' does
  // only for a constant. NULL (no range) only for a text of U+10FFFF alone.
  `CREATE OR REPLACE FUNCTION text_prefix_upper(p text) RETURNS text
   LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
   DECLARE
     c integer;
   BEGIN
     WHILE p <> '' LOOP
       c := ascii(right(p, 1));
       p := left(p, -1);
       IF c < 1114111 THEN
         RETURN p || chr(CASE WHEN c = 55295 THEN 57344 ELSE c + 1 END);
       END IF;
     END LOOP;
     RETURN NULL;
   END $$`,
  `CREATE TABLE IF NOT EXISTS token_name_stems (
    stem text PRIMARY KEY,
    live_count integer NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS token_name_stems_trgm ON token_name_stems USING gin (stem gin_trgm_ops)',
  // Deltas are summed per stem and applied in stem order (concurrent writers lock rows in the same
  // order); a statement whose deltas cancel out (most token updates: a transfer's facts, a
  // collection name filled in) writes nothing.
  `CREATE OR REPLACE FUNCTION token_name_stems_apply(stems text[], deltas integer[]) RETURNS void
   LANGUAGE plpgsql AS $$
   BEGIN
     IF cardinality(stems) = 0 THEN RETURN; END IF;
     INSERT INTO token_name_stems AS s (stem, live_count)
     SELECT d.stem, sum(d.delta)::int FROM unnest(stems, deltas) d(stem, delta)
      GROUP BY 1 HAVING sum(d.delta) <> 0
      ORDER BY 1
     ON CONFLICT (stem) DO UPDATE SET live_count = s.live_count + excluded.live_count;
     -- Only a rename or a burn takes a token out of a stem: then a stem left with no live token goes.
     IF EXISTS (SELECT 1 FROM unnest(deltas) d WHERE d < 0) THEN
       DELETE FROM token_name_stems WHERE stem = ANY(stems) AND live_count = 0;
     END IF;
   END $$`,
  `CREATE OR REPLACE FUNCTION token_name_stems_rebuild() RETURNS void LANGUAGE plpgsql AS $$
   BEGIN
     DELETE FROM token_name_stems;
     INSERT INTO token_name_stems (stem, live_count)
     SELECT token_name_stem(token_name), count(*)::int FROM tokens WHERE NOT is_burned GROUP BY 1;
   END $$`,
  `CREATE OR REPLACE FUNCTION token_name_stems_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM token_name_stems_rebuild();
     RETURN NULL;
   END $$`,
  `CREATE OR REPLACE FUNCTION token_name_stems_on_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     s text[];
     d integer[];
   BEGIN
     IF TG_OP = 'INSERT' THEN
       SELECT array_agg(stem), array_agg(delta) INTO s, d FROM (
         SELECT token_name_stem(token_name) AS stem, count(*)::int AS delta FROM new_rows
          WHERE NOT is_burned GROUP BY 1) x;
     ELSIF TG_OP = 'DELETE' THEN
       SELECT array_agg(stem), array_agg(delta) INTO s, d FROM (
         SELECT token_name_stem(token_name) AS stem, -count(*)::int AS delta FROM old_rows
          WHERE NOT is_burned GROUP BY 1) x;
     ELSE
       -- Most token updates keep the name and the burn flag: the join finds nothing to move.
       SELECT array_agg(stem), array_agg(delta) INTO s, d FROM (
         SELECT stem, sum(delta)::int AS delta FROM (
           SELECT token_name_stem(o.token_name) AS stem, -1 AS delta
             FROM old_rows o JOIN new_rows n ON n.token_data_id = o.token_data_id
            WHERE NOT o.is_burned AND (n.is_burned OR n.token_name <> o.token_name)
           UNION ALL
           SELECT token_name_stem(n.token_name), 1
             FROM old_rows o JOIN new_rows n ON n.token_data_id = o.token_data_id
            WHERE NOT n.is_burned AND (o.is_burned OR n.token_name <> o.token_name)) m
          GROUP BY 1) x;
     END IF;
     PERFORM token_name_stems_apply(coalesce(s, '{}'), coalesce(d, '{}'));
     RETURN NULL;
   END $$`,
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
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
