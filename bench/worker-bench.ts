/**
 * Worker benchmark (run: `pnpm exec tsx bench/worker-bench.ts` from the repository root; options
 * `--sales N` (default 300000), `--collections N` (2000), `--rarity-collections N` (50) and
 * `--tokens N` per rarity collection (2000)). Fills a fresh test database with synthetic market data
 * by SQL, then prints, best of three:
 *  - the bare-SQL baseline: 7-day volume / sales / distinct buyers per collection (one GROUP BY),
 *  - the trending ranking (the same aggregate + percentiles + scores + atomic snapshot replace),
 *  - all five rankings, the hourly snapshots, and recomputeAll;
 *  - OpenRarity's scheduled full recompute from an empty rarity table, with nothing changed, and with
 *    one collection changed (a burn), next to its bare-SQL baseline: one GROUP BY (collection, trait
 *    type, value) count of the attribute rows.
 */
import { sql } from '@mdq/db';
import { createTestDatabase } from '@mdq/db/testing';
import {
  computeAllRankings,
  computeAllRarity,
  computeCollectionRanking,
  recomputeAll,
  snapshotCollections,
} from '@mdq/worker';
import { benchFlags, numberFlag } from './flags';
import { traitCountsBaselineMs } from './worker-baselines';

const flags = benchFlags({
  sales: { type: 'string' },
  collections: { type: 'string' },
  'rarity-collections': { type: 'string' },
  tokens: { type: 'string' },
});
const sales = numberFlag(flags, 'sales', flags.sales ?? flags.count, 300_000, 30_000);
const collections = numberFlag(flags, 'collections', flags.collections, 2_000, 200);
const rarityCollections = numberFlag(flags, 'rarity-collections', flags['rarity-collections'], 50, 10);
const tokensPer = numberFlag(flags, 'tokens', flags.tokens, 2_000, 1_000);
const now = new Date('2026-11-20T12:00:00Z');

const cid = (expr: string) => sql.raw(`'0x' || lpad(to_hex(${expr}), 64, '0')`);
const t = await createTestDatabase();
const db = t.db;
const time = async (label: string, fn: () => Promise<unknown>, runs = 3): Promise<void> => {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    best = Math.min(best, performance.now() - t0);
  }
  console.log(`${label.padEnd(58)} ${best.toFixed(0).padStart(7)} ms`);
};

try {
  const t0 = performance.now();
  await sql`
    INSERT INTO collections (collection_id, token_standard, creator_address, collection_name, created_at, created_version, last_transaction_version)
    SELECT ${cid('g')}, 'v2', ${cid('1')}, 'c' || g, ${now}::timestamptz - interval '60 days', g, g
    FROM generate_series(1, ${collections}) g`.execute(db);
  // Sales over 30 days; collection popularity skewed (squared uniform) like a real market.
  await sql`
    INSERT INTO marketplace_activities (transaction_version, event_index, kind, marketplace, contract_address,
      raw_event_type, collection_id, price, token_amount, coin_type, buyer, seller, transaction_timestamp)
    SELECT g, 0, 'fill_listing', 'mdq', ${cid('1')}, 'ListingFilled',
      ${cid(`1 + floor(power(random(), 2) * ${collections})::int`)},
      (1 + floor(random() * 1e10))::numeric, 1, '0x1::aptos_coin::AptosCoin',
      ${cid('100000 + floor(random() * 50000)::int')}, ${cid('2')},
      ${now}::timestamptz - random() * interval '30 days'
    FROM generate_series(1, ${sales}) g`.execute(db);
  await sql`
    INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, collection_id, seller, price, coin_type, status, listed_at, last_transaction_version)
    SELECT 'mdq', 'l' || g, ${cid('1')}, ${cid('9000000 + g')}, ${cid(`1 + (g % ${collections})`)}, ${cid('3')},
      (1 + floor(random() * 1e10))::numeric, '0x1::aptos_coin::AptosCoin', 'active',
      ${now}::timestamptz - random() * interval '40 days', g
    FROM generate_series(1, ${collections * 20}) g`.execute(db);
  // Rarity collections: tokens with 6 traits of varied cardinality, one trait missing on 10%.
  const tokens = rarityCollections * tokensPer;
  await sql`
    INSERT INTO tokens (token_data_id, token_standard, collection_id, token_name, last_transaction_version)
    SELECT ${cid('5000000 + g')}, 'v2', ${cid(`1 + (g % ${rarityCollections})`)}, 't' || g, 1
    FROM generate_series(1, ${tokens}) g`.execute(db);
  await sql`
    INSERT INTO token_attributes (token_data_id, trait_type, collection_id, value)
    SELECT ${cid('5000000 + g')}, 'trait' || k, ${cid(`1 + (g % ${rarityCollections})`)},
      'v' || floor(power(random(), 3) * (k * 8))::int
    FROM generate_series(1, ${tokens}) g, generate_series(1, 6) k
    WHERE NOT (k = 6 AND g % 10 = 0)`.execute(db);
  await sql`
    INSERT INTO token_ownerships (token_data_id, owner_address, collection_id, token_standard, amount, last_transaction_version)
    SELECT ${cid('5000000 + g')}, ${cid('200000 + (g % 20000)')}, ${cid(`1 + (g % ${rarityCollections})`)}, 'v2', 1, 1
    FROM generate_series(1, ${tokens}) g`.execute(db);
  await sql`ANALYZE`.execute(db);
  console.log(
    `data: ${sales} sales over 30 days in ${collections} collections, ${collections * 20} listings, ` +
      `${tokens} tokens with traits in ${rarityCollections} collections (${((performance.now() - t0) / 1000).toFixed(1)} s to load)`,
  );

  await time('baseline: bare SQL 7-day volume/sales/buyers GROUP BY', () =>
    sql`SELECT collection_id, sum(price), count(*), count(DISTINCT buyer) FROM marketplace_activities
        WHERE kind IN ('fill_listing', 'fill_token_offer', 'fill_collection_offer')
          AND transaction_timestamp >= ${now}::timestamptz - interval '7 days' AND transaction_timestamp <= ${now}
        GROUP BY collection_id`.execute(db),
  );
  await time('trending ranking (aggregate + scores + snapshot replace)', () =>
    computeCollectionRanking(db, 'trending', now),
  );
  await time('daily picks ranking (24 h, floors, signals)', () =>
    computeCollectionRanking(db, 'daily_picks', now),
  );
  await time('top ranking (30 d, floors, holders)', () => computeCollectionRanking(db, 'top', now));
  await time('all five rankings', () => computeAllRankings(db, now));
  await rarityRuns(tokens);
  await time('hourly collection snapshots', () =>
    snapshotCollections(db, new Date(now.getTime() + Math.random() * 1e12)),
  );
  const timings = await recomputeAll(db, now);
  console.log(
    `recomputeAll once: ${Object.entries(timings)
      .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
      .join(', ')}`,
  );
} finally {
  await t.drop();
}

/** The three cases of the scheduled full recompute, each divided by the GROUP BY measured just before. */
async function rarityRuns(tokens: number): Promise<void> {
  const line = async (label: string, fn: () => Promise<unknown>, before?: () => Promise<unknown>) => {
    let best = Number.POSITIVE_INFINITY;
    let baseline = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) {
      baseline = Math.min(baseline, await traitCountsBaselineMs(db));
      await before?.();
      const t0 = performance.now();
      await fn();
      best = Math.min(best, performance.now() - t0);
    }
    console.log(
      `${label.padEnd(58)} ${best.toFixed(0).padStart(7)} ms  (bare GROUP BY ${baseline.toFixed(0)} ms: ${(best / baseline).toFixed(2)}×)`,
    );
  };
  await line(
    `rarity from empty, ${rarityCollections} collections (${tokens} tokens)`,
    () => computeAllRarity(db, now),
    async () => {
      await sql`DELETE FROM token_rarity`.execute(db);
      await sql`DELETE FROM collection_rarity_marks`.execute(db);
    },
  );
  await line('rarity full recompute, nothing changed', () => computeAllRarity(db, now));
  let burned = 0;
  await line(
    'rarity full recompute, one collection changed (a burn)',
    () => computeAllRarity(db, now),
    () =>
      sql`UPDATE tokens SET is_burned = true WHERE token_data_id = (
          SELECT token_data_id FROM tokens WHERE collection_id = ${cid('1')} AND NOT is_burned
          ORDER BY token_data_id OFFSET ${burned++} LIMIT 1)`.execute(db),
  );
}
