import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import { rebuildTokenRarity } from './rarity-rebuild';

/*
 * OpenRarity (https://openrarity.gitbook.io) in set-based SQL, one transaction. A token's score is the
 * information content of its traits, Σ −log2(P(value)), divided by its collection's entropy
 * Σ over traits Σ over values −P·log2 P. A token without a trait type that others of its collection
 * have carries the value "absent" for it, and the number of traits a token has is itself a trait.
 * The population is the collection's live (not burned) tokens; a collection whose live tokens have
 * no traits gets no rows. Rank 1 is the rarest; scores equal within Python's math.isclose tolerance
 * (rel 1e-9) share a rank, each compared with the one before it, and the next rank skips (1, 1, 3).
 *
 * "Absent" values are never materialised as rows (that would be tokens × trait types): a token's
 * information content is the sum of every trait type's absent IC, plus, for each trait it has,
 * that value's IC minus its type's absent IC, plus the IC of its trait count. The per-value counts
 * and each collection's live tokens are read from what the database keeps (trait_value_counts,
 * collection_trait_totals: migration 2026-11-26T1000), not counted. The per-value tables are built
 * first (small, analyzed temporary tables); the per-token sums, ranks and the write are then one
 * statement.
 */
const LOG2 = sql`ln(2::float8)`;
const ic = (c: RawBuilder<unknown>, n: RawBuilder<unknown>) => sql`(-ln(${c} / ${n}) / ${LOG2})`;
// "Changed" allows for float summation order: the same score summed in another order differs in
// its last bits, which must not count as a change.
const differs = (stored: string, computed: string, computedCount: string) =>
  sql.raw(`(${stored}.collection_id <> ${computed}.collection_id OR ${stored}.rank <> ${computed}.rank
     OR ${stored}.trait_count <> ${computed}.${computedCount}
     OR abs(${stored}.score - ${computed}.score) > 1e-12 * greatest(abs(${stored}.score), abs(${computed}.score)))`);

/**
 * Recomputes OpenRarity for `collectionIds`, or with 'all' for every collection whose traits changed
 * since its rarity was last computed (its `collection_trait_totals.changed_version` differs from
 * the `collection_rarity_marks` the computation leaves), and stores it in one transaction; rows of
 * tokens that left the population are removed. A collection's own recompute (the
 * collection-changed job) rewrites each of its rows with `computedAt`, so the time of its last
 * computation can be read there. The scheduled full recompute writes only the rows whose score,
 * rank or trait count changed: rewriting all 469k rows of the 1M chain (each a non-HOT update of
 * both indexes) cost twice the computation itself (docs/PERFORMANCE.md).
 * Returns how many tokens were ranked.
 */
export async function computeOpenRarity(
  db: Db,
  collectionIds: readonly string[] | 'all',
  computedAt: Date,
): Promise<number> {
  const all = collectionIds === 'all';
  const ids = all ? await collectionsWithChangedTraits(db) : [...new Set(collectionIds)].sort();
  if (ids.length === 0) return 0;
  const inScope = (column: string) => sql`${sql.ref(column)} = ANY(${ids}::text[])`;
  return db.transaction().execute(async (trx) => {
    // The same collection computed twice at once (a change and the schedule) waits, in id order.
    await sql`
      SELECT pg_advisory_xact_lock(hashtext('mdq:rarity:' || id))
      FROM (SELECT collection_id AS id FROM collections WHERE ${inScope('collection_id')}
            ORDER BY collection_id) c
    `.execute(trx);
    // The versions this computation starts from, read before anything it computes from: a change
    // committed after this point leaves the mark behind the collection's version, so the next
    // scheduled run computes the collection again.
    await sql`
      CREATE TEMP TABLE rarity_scope ON COMMIT DROP AS
      SELECT collection_id, changed_version FROM collection_trait_totals WHERE ${inScope('collection_id')}
    `.execute(trx);
    // A plan of a few hash joins and sorts: JIT compiling it costs more than it saves, and the
    // per-collection counts fit in memory.
    await sql`SET LOCAL jit = off`.execute(trx);
    await sql`SET LOCAL work_mem = '64MB'`.execute(trx);
    if (await coversMuchOfTheTable(trx, ids)) {
      // Every attribute row of the scope is read: one sequential scan probing the small hash of
      // value ICs. Left to itself the planner walks token_attributes_collection once per value
      // (nested loop or merge join), a random heap read per attribute row: 76 s against 13 s at
      // 469k tokens (docs/PERFORMANCE.md). A few collections keep that index path, right for them.
      await sql`SET LOCAL enable_nestloop = off`.execute(trx);
      await sql`SET LOCAL enable_mergejoin = off`.execute(trx);
      // The per-token rows are materialized, counted again per trait count and sorted for the
      // ranks: at 469k tokens they spilled to disk at 64 MB (a 125 MB external sort).
      await sql`SET LOCAL work_mem = '256MB'`.execute(trx);
    }
    // The value counts and their ICs as analyzed temporary tables, so that the join below is
    // planned on their true size (as CTEs they were estimated, and the 2.77M attribute rows became
    // the hashed side). Counts and collection sizes come from one statement, so from one snapshot.
    await sql`
      CREATE TEMP TABLE rarity_value_counts ON COMMIT DROP AS
      SELECT v.collection_id, v.trait_type, v.value, v.live_count::float8 AS c, t.live_tokens::float8 AS n
      FROM trait_value_counts v JOIN collection_trait_totals t USING (collection_id)
      WHERE ${inScope('v.collection_id')} AND v.live_count > 0 AND t.live_tokens > 0
    `.execute(trx);
    await sql`
      CREATE TEMP TABLE rarity_sizes ON COMMIT DROP AS
      SELECT collection_id, n, row_number() OVER (ORDER BY collection_id)::int AS ord
      FROM (SELECT DISTINCT collection_id, n FROM rarity_value_counts) s
    `.execute(trx);
    await sql`
      CREATE TEMP TABLE rarity_absent ON COMMIT DROP AS
      SELECT v.collection_id, v.trait_type, s.n - sum(v.c) AS c, s.n
      FROM rarity_value_counts v JOIN rarity_sizes s USING (collection_id)
      GROUP BY v.collection_id, v.trait_type, s.n
    `.execute(trx);
    await sql`
      CREATE TEMP TABLE rarity_value_ic ON COMMIT DROP AS
      SELECT v.collection_id, v.trait_type, v.value,
             ${ic(sql`v.c`, sql`a.n`)} - CASE WHEN a.c > 0 THEN ${ic(sql`a.c`, sql`a.n`)} ELSE 0 END AS ic
      FROM rarity_value_counts v JOIN rarity_absent a USING (collection_id, trait_type)
    `.execute(trx);
    await sql`ANALYZE rarity_value_counts, rarity_sizes, rarity_absent, rarity_value_ic`.execute(trx);
    await sql`
      CREATE TEMP TABLE rarity_ranked ON COMMIT DROP AS
      WITH value_counts AS (SELECT collection_id, trait_type, value, c FROM rarity_value_counts),
      sizes AS (SELECT * FROM rarity_sizes),
      absent AS (SELECT * FROM rarity_absent),
      value_ic AS (SELECT * FROM rarity_value_ic),
      -- What each token's traits add (the small value_ic is the hashed side of the join).
      trait_ic AS (
        SELECT a.token_data_id, count(*)::int AS k, sum(v.ic) AS ic
        FROM token_attributes a
        JOIN value_ic v ON v.collection_id = a.collection_id AND v.trait_type = a.trait_type AND v.value = a.value
        WHERE ${inScope('a.collection_id')}
        GROUP BY a.token_data_id
      ),
      -- Every live token of a collection with traits, with its trait count and their IC.
      per_token AS MATERIALIZED (
        SELECT s.ord, t.collection_id, t.token_data_id, COALESCE(x.k, 0) AS k, COALESCE(x.ic, 0) AS ic
        FROM tokens t JOIN sizes s ON s.collection_id = t.collection_id
        LEFT JOIN trait_ic x ON x.token_data_id = t.token_data_id
        WHERE NOT t.is_burned AND ${inScope('t.collection_id')}
      ),
      k_counts AS (SELECT ord, k, count(*)::float8 AS c FROM per_token GROUP BY 1, 2),
      entropy AS (
        SELECT collection_id, sum(h) AS h FROM (
          SELECT v.collection_id, v.c / s.n * ${ic(sql`v.c`, sql`s.n`)} AS h
          FROM value_counts v JOIN sizes s USING (collection_id)
          UNION ALL
          SELECT collection_id, c / n * ${ic(sql`c`, sql`n`)} FROM absent WHERE c > 0
          UNION ALL
          SELECT s.collection_id, k.c / s.n * ${ic(sql`k.c`, sql`s.n`)}
          FROM k_counts k JOIN sizes s USING (ord)
        ) parts GROUP BY collection_id
      ),
      absent_ic AS (
        SELECT collection_id, sum(CASE WHEN c > 0 THEN ${ic(sql`c`, sql`n`)} ELSE 0 END) AS ic
        FROM absent GROUP BY collection_id
      ),
      -- Per collection: the IC of a token with no trait at all (every type absent), and the entropy.
      base AS MATERIALIZED (
        SELECT s.ord, s.n, e.h, b.ic
        FROM sizes s JOIN entropy e USING (collection_id) JOIN absent_ic b USING (collection_id)
      ),
      scored AS (
        SELECT t.ord, t.collection_id, t.token_data_id, t.k,
               CASE WHEN b.h > 0 THEN (b.ic + t.ic + ${ic(sql`kc.c`, sql`b.n`)}) / b.h ELSE 0 END AS score
        FROM per_token t
        JOIN k_counts kc USING (ord, k)
        JOIN base b USING (ord)
      ),
      -- Rank = the position where a token's tie group starts: the running maximum of the positions
      -- that start a group. Both windows walk one order, so the scored rows are sorted once. The
      -- partition is the collection's number (ord), not its 66-character id: nearly every
      -- comparison of the sort is between two tokens of one collection, where the ids are equal
      -- to their last byte; token ids, the last key, compare in the "C" collation, whose byte
      -- comparisons sort several times faster than a locale's (docs/PERFORMANCE.md).
      ordered AS (
        SELECT *, row_number() OVER w AS position, lag(score) OVER w AS previous
        FROM scored
        WINDOW w AS (PARTITION BY ord ORDER BY score DESC, token_data_id COLLATE "C")
      ),
      ranked AS (
        SELECT collection_id, token_data_id, k, score,
               max(CASE WHEN previous IS NOT NULL
                         AND abs(score - previous) <= 1e-9 * greatest(abs(score), abs(previous))
                        THEN NULL ELSE position END)
                 OVER (PARTITION BY ord ORDER BY score DESC, token_data_id COLLATE "C"
                       ROWS UNBOUNDED PRECEDING)::int AS rank
        FROM ordered
      )
      SELECT collection_id, token_data_id, k, score, rank FROM ranked
    `.execute(trx);
    const ranked = await storeRarity(trx, ids, all, computedAt);
    await sql`
      INSERT INTO collection_rarity_marks (collection_id, computed_from)
      SELECT collection_id, changed_version FROM rarity_scope ORDER BY collection_id
      ON CONFLICT (collection_id) DO UPDATE SET computed_from = excluded.computed_from
      WHERE collection_rarity_marks.computed_from <> excluded.computed_from
    `.execute(trx);
    return ranked;
  });
}

interface StoreCounts {
  /** Tokens ranked. */
  ranked: number;
  /** Of those, the ones whose stored row differs (or is missing). */
  changed: number;
  /** Stored rows of other collections. */
  kept: number;
}

/**
 * Writes `rarity_ranked` for the collections `ids` and removes their rows of tokens that left the
 * population; returns how many tokens were ranked. A collection's own recompute rewrites all its
 * rows; the full recompute writes only the rows whose score, rank or trait count changed, and when
 * those are most of the table (a first computation, or every collection changed) builds the table
 * anew instead (rebuildTokenRarity): inserting 469k rows into the table's two indexes cost 10–48 s
 * against 5 s for writing the rows and building the indexes afterwards (docs/PERFORMANCE.md).
 */
async function storeRarity(trx: Db, ids: readonly string[], all: boolean, computedAt: Date): Promise<number> {
  const inScope = sql`r.collection_id = ANY(${ids}::text[])`;
  // Whether to rebuild is the full recompute's question only. A collection's own recompute asked it
  // too, and counting the rows it would change and every other collection's rows cost more than
  // its write: 317 ms a recompute on the 1M chain under the live bench, a third of the worker's
  // rarity time (docs/PERFORMANCE.md). Its upsert writes every row it ranked, and says how many.
  let counted: number | undefined;
  if (all) {
    const { rows } = await sql<StoreCounts>`
      SELECT (SELECT count(*) FROM rarity_ranked)::int AS ranked,
             (SELECT count(*) FROM rarity_ranked x LEFT JOIN token_rarity s USING (token_data_id)
               WHERE s.token_data_id IS NULL OR ${differs('s', 'x', 'k')})::int AS changed,
             (SELECT count(*) FROM token_rarity r WHERE NOT ${inScope})::int AS kept
    `.execute(trx);
    const { ranked = 0, changed = 0, kept = 0 } = rows[0] ?? {};
    if (changed * 2 > ranked + kept) {
      await rebuildTokenRarity(trx, ids, computedAt);
      return ranked;
    }
    counted = ranked;
  }
  const written = await sql`
    INSERT INTO token_rarity (token_data_id, collection_id, score, rank, trait_count, computed_at)
    SELECT x.token_data_id, x.collection_id, x.score, x.rank, x.k, ${computedAt} FROM rarity_ranked x
    ${all ? sql`LEFT JOIN token_rarity s ON s.token_data_id = x.token_data_id WHERE s.token_data_id IS NULL OR ${differs('s', 'x', 'k')}` : sql``}
    ORDER BY x.token_data_id
    ON CONFLICT (token_data_id) DO UPDATE SET collection_id = excluded.collection_id,
      score = excluded.score, rank = excluded.rank, trait_count = excluded.trait_count,
      computed_at = excluded.computed_at
  `.execute(trx);
  await sql`
    DELETE FROM token_rarity r WHERE ${inScope}
      AND NOT EXISTS (SELECT 1 FROM rarity_ranked x WHERE x.token_data_id = r.token_data_id)
  `.execute(trx);
  return counted ?? Number(written.numAffectedRows ?? 0n);
}

/**
 * A collection's rarity is stale when its traits, tokens or burns changed since it was last
 * computed: its trait version moved past the mark the computation left. Over
 * `collection_trait_totals t LEFT JOIN collection_rarity_marks m`.
 */
const STALE = sql<boolean>`m.computed_from IS DISTINCT FROM t.changed_version`;

/** The collections whose rarity is stale (the scheduled recompute's). */
async function collectionsWithChangedTraits(db: Db): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    SELECT t.collection_id AS id FROM collection_trait_totals t
    LEFT JOIN collection_rarity_marks m USING (collection_id)
    WHERE ${STALE}
    ORDER BY 1
  `.execute(db);
  return rows.map((r) => r.id);
}

/** Whether one collection's rarity is stale (the collection-changed job and the crawl ask). */
export async function rarityIsStale(db: Db, collectionId: string): Promise<boolean> {
  const { rows } = await sql<{ stale: boolean }>`
    SELECT ${STALE} AS stale FROM collection_trait_totals t
      LEFT JOIN collection_rarity_marks m USING (collection_id)
     WHERE t.collection_id = ${collectionId}`.execute(db);
  return rows[0]?.stale ?? false;
}

/**
 * Whether the collections hold enough of all live tokens that one sequential scan of the attribute
 * rows beats reading theirs through the index (a random heap read per row, ~20× the cost of a row
 * of a sequential scan on the 1M chain: docs/PERFORMANCE.md).
 */
async function coversMuchOfTheTable(db: Db, ids: readonly string[]): Promise<boolean> {
  const { rows } = await sql<{ scope: number; total: number }>`
    SELECT COALESCE(sum(live_tokens) FILTER (WHERE collection_id = ANY(${ids}::text[])), 0)::float8 AS scope,
           COALESCE(sum(live_tokens), 0)::float8 AS total
    FROM collection_trait_totals
  `.execute(db);
  const { scope = 0, total = 0 } = rows[0] ?? {};
  return scope * 20 > total;
}

export interface LootboxTierTableRow {
  tierName: string;
  position: number;
  weight: string;
  /** weight / sum of the lootbox's weights; 0 when all weights are 0. */
  probability: number;
  maxSupply: string;
  minted: string;
}

/** The lootbox rarity table: tiers in contract order with weights, draw probabilities, supply and minted. */
export async function loadLootboxTierTable(db: Db, lootboxId: number): Promise<LootboxTierTableRow[]> {
  const { rows } = await sql<LootboxTierTableRow>`
    SELECT tier_name AS "tierName", position, weight::text AS weight,
           COALESCE((weight / NULLIF(sum(weight) OVER (), 0))::float8, 0) AS probability,
           max_supply::text AS "maxSupply", minted::text AS minted
    FROM lootbox_tiers WHERE lootbox_id = ${lootboxId}
    ORDER BY position, tier_name
  `.execute(db);
  return rows;
}
