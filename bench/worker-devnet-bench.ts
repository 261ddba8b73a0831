/**
 * Worker recompute on an ingested devnet chain (run: `pnpm --filter @mdq/bench bench:worker-devnet`,
 * `--count N`, default 1,000,000 — ingestion alone takes a quarter of an hour on 2 cores). The chain
 * is served by a devnet process and ingested by the real indexer; then the full recompute (snapshots,
 * five rankings, OpenRarity for every collection, inventories) is timed at the chain's "now", next
 * to the bare SQL 7-day aggregate over the same activity table.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_LOOTBOX_ADDRESS, DEFAULT_MARKETPLACE_ADDRESS } from '@mdq/chain';
import { sql } from '@mdq/db';
import { createTestDatabase } from '@mdq/db/testing';
import { createDecoder, fullnodeSource, runIndexer } from '@mdq/indexer';
import { noopNotifier } from '@mdq/jobs';
import { recomputeAll } from '@mdq/worker';
import { startDevnetProcess } from './devnet-process';

const { values } = parseArgs({ options: { count: { type: 'string' } } });
const count = Number(values.count ?? 1_000_000);
const devnet = await startDevnetProcess(count);
const test = await createTestDatabase();
let t0 = performance.now();
const stats = await runIndexer({
  db: test.db,
  source: fullnodeSource(devnet.url),
  decode: createDecoder({
    marketplaceAddress: DEFAULT_MARKETPLACE_ADDRESS,
    lootboxAddress: DEFAULT_LOOTBOX_ADDRESS,
  }),
  notifier: noopNotifier,
  batchSize: 1000,
  untilCaughtUp: true,
});
const ingestS = (performance.now() - t0) / 1000;
devnet.stop();
await sql`ANALYZE`.execute(test.db);
const { rows } = await sql<{ now: Date; sales: number; tokens: number; collections: number }>`
  SELECT (SELECT max(transaction_timestamp) FROM marketplace_activities) AS now,
         (SELECT count(*)::int FROM marketplace_activities WHERE kind LIKE 'fill_%') AS sales,
         (SELECT count(*)::int FROM tokens) AS tokens, (SELECT count(*)::int FROM collections) AS collections`.execute(
  test.db,
);
const facts = rows[0] as { now: Date; sales: number; tokens: number; collections: number };
const now = new Date(facts.now);

t0 = performance.now();
await sql`SELECT collection_id, sum(price), count(*), count(DISTINCT buyer) FROM marketplace_activities
  WHERE kind IN ('fill_listing', 'fill_token_offer', 'fill_collection_offer')
    AND transaction_timestamp >= ${new Date(now.getTime() - 7 * 86_400_000)} GROUP BY collection_id`.execute(
  test.db,
);
const baselineMs = performance.now() - t0;
t0 = performance.now();
const timings = await recomputeAll(test.db, now);
const recomputeMs = performance.now() - t0;

console.log(`
| measure | value |
|---|---|
| chain | ${stats.transactions.toLocaleString('en-US')} transactions ingested in ${ingestS.toFixed(0)} s (${Math.round(stats.transactions / ingestS)} tx/s) |
| data | ${facts.sales.toLocaleString('en-US')} sales, ${facts.tokens.toLocaleString('en-US')} tokens, ${facts.collections} collections |
| baseline: bare SQL 7-day volume / sales / buyers | ${baselineMs.toFixed(0)} ms |
| full recompute | ${recomputeMs.toFixed(0)} ms (snapshots ${timings.snapshotsMs.toFixed(0)}, rankings ${timings.rankingsMs.toFixed(0)}, rarity ${timings.rarityMs.toFixed(0)}, inventory ${timings.inventoryMs.toFixed(0)}) |
| rankings ÷ baseline | ${(timings.rankingsMs / baselineMs).toFixed(1)} |
`);
await test.drop();
process.exit(0);
