/**
 * Bulk export benchmark (run: `pnpm --filter @mdq/bench bench:export`; `--rows N`, default
 * 1,000,000; `--quick` for 100,000). Fills a fresh database with sales rows (generate_series),
 * then measures GET /api/export/sales over real HTTP (NDJSON, CSV, NDJSON gzip) against a
 * baseline taken in the same run: `COPY (SELECT * … ORDER BY key) TO STDOUT` of the same rows,
 * read by a bare pg client and thrown away. Goal: export rows/s ÷ COPY rows/s ≥ 0.7.
 */
import { get } from 'node:http';
import { parseArgs } from 'node:util';
import { buildApp } from '@mdq/api';
import { createApiKey, poolOf, sql } from '@mdq/db';
import { createTestDatabase } from '@mdq/db/testing';
import copyStreams from 'pg-copy-streams';

const { values } = parseArgs({ options: { rows: { type: 'string' }, quick: { type: 'boolean' } } });
const rows = Number(values.rows ?? (values.quick ? 100_000 : 1_000_000));
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100);

const database = await createTestDatabase();
for (const index of ['token', 'collection', 'seller', 'buyer', 'offer', 'fills', 'collection_fills']) {
  await sql.raw(`DROP INDEX IF EXISTS market_activities_${index}`).execute(database.db);
}
await sql`
  INSERT INTO marketplace_activities (transaction_version, event_index, kind, marketplace, contract_address,
    raw_event_type, token_data_id, token_standard, collection_id, collection_name, creator_address, token_name,
    price, token_amount, seller, buyer, listing_id, transaction_timestamp)
  SELECT g / 3 + 1, g % 3, 'fill_listing', '0x6d71', '0x6d71', '0x6d71::marketplace::FillListing',
         '0x' || lpad(to_hex(g % 50000), 64, '0'), 'v2', '0x' || lpad(to_hex(g % 40), 64, '0'),
         'Collection ' || (g % 40), '0x' || lpad(to_hex(g % 40 + 7), 64, '0'), 'Token #' || g,
         (g::numeric * 1000003) % 1000000000000, 1, '0x' || lpad(to_hex(g % 997), 64, '0'),
         '0x' || lpad(to_hex(g % 991 + 5000), 64, '0'), '0x' || lpad(to_hex(g), 64, '0'),
         timestamptz '2026-01-01' + g * interval '1 second'
    FROM generate_series(0, ${rows - 1}) g`.execute(database.db);
await sql`VACUUM ANALYZE marketplace_activities`.execute(database.db);
console.log(`${fmt(rows)} sales rows`);

// Baseline: COPY of the same rows in the same order, straight from Postgres, nothing else.
const client = await poolOf(database.db).connect();
let t0 = performance.now();
let copyBytes = 0;
const copy = client.query(
  copyStreams.to(
    `COPY (SELECT * FROM marketplace_activities ORDER BY transaction_version, event_index) TO STDOUT`,
  ),
);
for await (const chunk of copy as AsyncIterable<Buffer>) copyBytes += chunk.length;
const copyMs = performance.now() - t0;
client.release();

const app = await buildApp({ db: database.db, network: 'local', exportRowsPerDay: 1_000_000_000 });
const { key } = await createApiKey(database.db, { name: 'bench' });
const base = await app.listen({ host: '127.0.0.1', port: 0 });

/** Reads an export over HTTP, discarding the bytes as they arrive. */
function download(path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${base}/local/api/export/${path}`, { headers: { 'x-api-key': key, ...headers } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${path}: HTTP ${res.statusCode}`));
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve(bytes));
      res.on('error', reject);
    }).on('error', reject);
  });
}

const copyRate = rows / (copyMs / 1000);
const table: Record<string, { 'rows/s': string; MB: string; 'vs COPY': string }> = {
  'COPY TO (baseline)': { 'rows/s': fmt(copyRate), MB: fmt(copyBytes / 1e6), 'vs COPY': '1.00' },
};
for (const [label, path, headers] of [
  ['export NDJSON', 'sales', {}],
  ['export CSV', 'sales?format=csv', {}],
  ['export NDJSON gzip', 'sales', { 'accept-encoding': 'gzip' }],
] as const) {
  t0 = performance.now();
  const bytes = await download(path, headers);
  const rate = rows / ((performance.now() - t0) / 1000);
  table[label] = { 'rows/s': fmt(rate), MB: fmt(bytes / 1e6), 'vs COPY': (rate / copyRate).toFixed(2) };
}
clearInterval(sampler);
console.table(table);
console.log(`peak RSS (server and client in this process): ${fmt(peakRss / 2 ** 20)} MiB`);
await app.close();
await database.drop();
