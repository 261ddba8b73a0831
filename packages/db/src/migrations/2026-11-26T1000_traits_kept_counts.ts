import { type Kysely, sql } from 'kysely';

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

const UP = [
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
  `CREATE OR REPLACE FUNCTION trait_counts_apply(deltas trait_count_delta[]) RETURNS void
   LANGUAGE plpgsql AS $$
   BEGIN
     IF cardinality(deltas) = 0 THEN RETURN; END IF;
     INSERT INTO trait_value_counts AS c (collection_id, trait_type, value, live_count)
     SELECT d.collection_id, d.trait_type, d.value, sum(d.delta)::int FROM unnest(deltas) d
      WHERE d.trait_type IS NOT NULL
      GROUP BY 1, 2, 3 HAVING sum(d.delta) <> 0
      ORDER BY 1, 2, 3
     ON CONFLICT (collection_id, trait_type, value) DO UPDATE SET live_count = c.live_count + excluded.live_count;
     -- Every collection named is marked changed, even when its deltas cancel out: two tokens that
     -- swap values leave the counts as they were but change both tokens' scores.
     INSERT INTO collection_trait_totals AS c (collection_id, live_tokens, changed_version)
     SELECT d.collection_id, COALESCE(sum(d.delta) FILTER (WHERE d.trait_type IS NULL), 0)::int,
            pg_current_xact_id()::text::bigint
       FROM unnest(deltas) d
      GROUP BY 1 ORDER BY 1
     ON CONFLICT (collection_id) DO UPDATE SET live_tokens = c.live_tokens + excluded.live_tokens,
       changed_version = excluded.changed_version
      WHERE excluded.live_tokens <> 0 OR c.changed_version <> excluded.changed_version;
   END $$`,
  // Recount from scratch: the migration's fill, and after a TRUNCATE.
  `CREATE OR REPLACE FUNCTION trait_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
   BEGIN
     DELETE FROM trait_value_counts;
     INSERT INTO trait_value_counts (collection_id, trait_type, value, live_count)
     SELECT a.collection_id, a.trait_type, a.value, count(*)::int
       FROM token_attributes a JOIN tokens t ON t.token_data_id = a.token_data_id
      WHERE NOT t.is_burned
      GROUP BY 1, 2, 3;
     UPDATE collection_trait_totals SET live_tokens = 0, changed_version = pg_current_xact_id()::text::bigint;
     INSERT INTO collection_trait_totals AS c (collection_id, live_tokens, changed_version)
     SELECT collection_id, count(*) FILTER (WHERE NOT is_burned)::int, pg_current_xact_id()::text::bigint
       FROM (SELECT collection_id, is_burned FROM tokens
             UNION ALL SELECT collection_id, true FROM token_attributes) x
      GROUP BY 1
     ON CONFLICT (collection_id) DO UPDATE SET live_tokens = excluded.live_tokens;
   END $$`,
  `CREATE OR REPLACE FUNCTION trait_counts_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM trait_counts_rebuild();
     RETURN NULL;
   END $$`,
  // Attribute rows count while their token is live. Each lookup is a primary-key probe: a LATERAL
  // subquery that LIMIT / OFFSET 0 keeps from being flattened into a join the planner could hash
  // (a sequential scan of the other table per statement). Deltas are summed per value before they
  // are applied, so a bulk insert hands over one delta per value, not one per row.
  `CREATE OR REPLACE FUNCTION trait_counts_on_attributes() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP IN ('INSERT', 'UPDATE') THEN
       PERFORM trait_counts_apply(ARRAY(
         SELECT ROW(collection_id, trait_type, value, sum(delta)::int)::trait_count_delta FROM (
         SELECT a.collection_id, a.trait_type, a.value, 1 FROM new_rows a
           JOIN LATERAL (SELECT 1 FROM tokens t WHERE t.token_data_id = a.token_data_id AND NOT t.is_burned LIMIT 1) t ON true) d(collection_id, trait_type, value, delta)
          GROUP BY collection_id, trait_type, value));
     END IF;
     IF TG_OP IN ('DELETE', 'UPDATE') THEN
       PERFORM trait_counts_apply(ARRAY(
         SELECT ROW(collection_id, trait_type, value, sum(delta)::int)::trait_count_delta FROM (
         SELECT a.collection_id, a.trait_type, a.value, -1 FROM old_rows a
           JOIN LATERAL (SELECT 1 FROM tokens t WHERE t.token_data_id = a.token_data_id AND NOT t.is_burned LIMIT 1) t ON true) d(collection_id, trait_type, value, delta)
          GROUP BY collection_id, trait_type, value));
     END IF;
     RETURN NULL;
   END $$`,
  // A token counts in its collection while live; entering or leaving, its attribute rows do too.
  `CREATE OR REPLACE FUNCTION trait_counts_on_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'INSERT' THEN
       PERFORM trait_counts_apply(ARRAY(
         SELECT ROW(collection_id, trait_type, value, sum(delta)::int)::trait_count_delta FROM (
         SELECT n.collection_id, NULL, NULL, 1 FROM new_rows n WHERE NOT n.is_burned
         UNION ALL
         SELECT a.collection_id, a.trait_type, a.value, 1 FROM new_rows n
           JOIN LATERAL (SELECT * FROM token_attributes a WHERE a.token_data_id = n.token_data_id OFFSET 0) a ON true
          WHERE NOT n.is_burned) d(collection_id, trait_type, value, delta)
          GROUP BY collection_id, trait_type, value));
     ELSIF TG_OP = 'DELETE' THEN
       PERFORM trait_counts_apply(ARRAY(
         SELECT ROW(collection_id, trait_type, value, sum(delta)::int)::trait_count_delta FROM (
         SELECT o.collection_id, NULL, NULL, -1 FROM old_rows o WHERE NOT o.is_burned
         UNION ALL
         SELECT a.collection_id, a.trait_type, a.value, -1 FROM old_rows o
           JOIN LATERAL (SELECT * FROM token_attributes a WHERE a.token_data_id = o.token_data_id OFFSET 0) a ON true
          WHERE NOT o.is_burned) d(collection_id, trait_type, value, delta)
          GROUP BY collection_id, trait_type, value));
     ELSE
       -- Most token updates change neither the burn flag nor the collection: the join finds nothing.
       PERFORM trait_counts_apply(ARRAY(
         SELECT ROW(collection_id, trait_type, value, sum(delta)::int)::trait_count_delta FROM (
         WITH moved AS (
           SELECT o.token_data_id, o.collection_id AS was_in, n.collection_id AS now_in,
                  (NOT o.is_burned)::int AS was_live, (NOT n.is_burned)::int AS now_live
             FROM old_rows o JOIN new_rows n ON n.token_data_id = o.token_data_id
            WHERE o.collection_id <> n.collection_id OR o.is_burned <> n.is_burned
         )
         SELECT was_in, NULL, NULL, -was_live FROM moved
         UNION ALL
         SELECT now_in, NULL, NULL, now_live FROM moved
         UNION ALL
         SELECT a.collection_id, a.trait_type, a.value, m.now_live - m.was_live FROM moved m
           JOIN LATERAL (SELECT * FROM token_attributes a WHERE a.token_data_id = m.token_data_id OFFSET 0) a ON true
          WHERE m.now_live <> m.was_live) d(collection_id, trait_type, value, delta)
          GROUP BY collection_id, trait_type, value));
     END IF;
     RETURN NULL;
   END $$`,
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
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
