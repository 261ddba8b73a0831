/**
 * Bulk export benchmark (run: `pnpm --filter @mdq/bench bench:export`; `--rows N`, default
 * 1,000,000; `--quick` for 100,000). Fills a fresh database with sales rows (generate_series),
 * then measures GET /api/export/sales over real HTTP (NDJSON, CSV, NDJSON gzip at the route's
 * default and at other zlib settings, each served by its own app) against a baseline taken in the
 * same run: `COPY (SELECT * … ORDER BY key) TO STDOUT` of the same rows, read by a bare pg client
 * and thrown away; the HTTP client is a socket that counts bytes. Each figure is the median of
 * three interleaved rounds (one under --quick). Goal: export rows/s ÷ COPY rows/s ≥ 0.7.
 */
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { type AppOptions, buildApp } from '@mdq/api';
import { createApiKey, poolOf, sql } from '@mdq/db';
import { openExport } from '@mdq/db/export';
import { createTestDatabase } from '@mdq/db/testing';
import copyStreams from 'pg-copy-streams';
import { benchFlags, numberFlag } from './flags';

const flags = benchFlags({ rows: { type: 'string' } });
const rows = numberFlag(flags, 'rows', flags.rows ?? flags.count, 1_000_000, 100_000);
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

// One app per gzip setting (the route's default first), all in this process like the readers.
const GZIP_VARIANTS: [string, AppOptions['exportGzip']][] = [
  ['default', undefined],
  ['level 6 (zlib default), 16 KiB chunks', { level: 6, chunkSize: 16 * 1024 }],
  ['level 1, 16 KiB chunks', { level: 1, chunkSize: 16 * 1024 }],
];
const apps = await Promise.all(
  GZIP_VARIANTS.map(([, exportGzip]) =>
    buildApp({ db: database.db, network: 'local', exportRowsPerDay: 1_000_000_000, exportGzip }),
  ),
);
const { key } = await createApiKey(database.db, { name: 'bench' });
const bases = await Promise.all(apps.map((app) => app.listen({ host: '127.0.0.1', port: 0 })));
const base = bases[0] as string;

/**
 * Reads an export over HTTP and discards it. The client is a bare socket that only counts bytes
 * (the request asks the server to close the connection at the end): a consumer runs elsewhere, and
 * an HTTP parser on this machine's two cores would bill its own work to the export.
 */
function download(path: string, headers: Record<string, string> = {}, server = base): Promise<number> {
  const { hostname, port } = new URL(server);
  const head = Object.entries({ 'x-api-key': key, connection: 'close', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let status = '';
    const socket = connect({ host: hostname, port: Number(port) }, () =>
      socket.write(`GET /local/api/export/${path} HTTP/1.1\r\nhost: ${hostname}\r\n${head}\r\n`),
    );
    socket.on('data', (chunk: Buffer) => {
      if (bytes === 0) status = chunk.subarray(0, 12).toString('latin1');
      bytes += chunk.length;
    });
    socket.on('end', () =>
      status === 'HTTP/1.1 200' ? resolve(bytes) : reject(new Error(`${path}: ${status || 'no answer'}`)),
    );
    socket.on('error', reject);
  });
}

/** Bare COPY of the same rows in the same order, read by a pg client and thrown away. */
async function copyBaseline(): Promise<number> {
  const client = await poolOf(database.db).connect();
  try {
    let bytes = 0;
    const copy = client.query(
      copyStreams.to(
        `COPY (SELECT * FROM marketplace_activities ORDER BY transaction_version, event_index) TO STDOUT`,
      ),
    );
    for await (const chunk of copy as AsyncIterable<Buffer>) bytes += chunk.length;
    return bytes;
  } finally {
    client.release();
  }
}

/**
 * Seconds, bytes and this process's CPU seconds (server, readers, zlib's pool threads) of one run
 * of `read`: the CPU is the part of a figure that a busy machine moves least.
 */
async function timed(read: () => Promise<number>): Promise<{ seconds: number; bytes: number; cpu: number }> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const bytes = await read();
  const { user, system } = process.cpuUsage(cpu0);
  return { seconds: (performance.now() - t0) / 1000, bytes, cpu: (user + system) / 1e6 };
}

// Rounds interleave the baseline and the exports so a busy moment of a shared machine touches all
// of them; each figure is the median of its rounds.
const RUNS = flags.quick ? 1 : 3;
const readers: [string, () => Promise<number>][] = [
  ['COPY TO (baseline)', copyBaseline],
  ['export NDJSON', () => download('sales')],
  ['export CSV', () => download('sales?format=csv')],
  ...GZIP_VARIANTS.map(([label], i): [string, () => Promise<number>] => [
    `export NDJSON gzip, ${label}`,
    () => download('sales', { 'accept-encoding': 'gzip' }, bases[i]),
  ]),
];
const samples = new Map<string, { seconds: number; bytes: number; cpu: number }[]>(
  readers.map(([label]) => [label, []]),
);
for (let round = 0; round < RUNS; round++) {
  for (const [label, read] of readers) samples.get(label)?.push(await timed(read));
}
const median = (label: string) => {
  const runs = [...(samples.get(label) ?? [])].sort((a, b) => a.seconds - b.seconds);
  return runs[Math.floor(runs.length / 2)] as { seconds: number; bytes: number; cpu: number };
};
const copyRate = rows / median('COPY TO (baseline)').seconds;
const table: Record<string, { 'rows/s': string; MB: string; 'vs COPY': string; 'Node CPU s': string }> = {};
for (const [label] of readers) {
  const { seconds, bytes, cpu } = median(label);
  const rate = rows / seconds;
  table[label] = {
    'rows/s': fmt(rate),
    MB: fmt(bytes / 1e6),
    'vs COPY': (rate / copyRate).toFixed(2),
    'Node CPU s': cpu.toFixed(2),
  };
}
clearInterval(sampler);
console.table(table);
console.log(`peak RSS (server and both readers in this process): ${fmt(peakRss / 2 ** 20)} MiB`);

/**
 * zlib alone on this thread, over the first 100,000 rows of the same NDJSON: what a gzipped export
 * adds to a core whatever else runs (a zlib stream compresses on the libuv pool, a third busy
 * thread beside Postgres and the event loop).
 */
const sample = await openExport(database.db, {
  dataset: 'sales',
  format: 'ndjson',
  limit: Math.min(rows, 100_000),
});
const parts: Buffer[] = [];
for await (const chunk of sample.stream) parts.push(chunk as Buffer);
const ndjson = Buffer.concat(parts);
for (const level of [1, 6]) {
  const t0 = process.cpuUsage();
  const zipped = gzipSync(ndjson, { level });
  const { user, system } = process.cpuUsage(t0);
  const perSecond = ndjson.length / ((user + system) / 1e6);
  console.log(
    `zlib level ${level} alone: ${fmt(perSecond / 1e6)} MB/s of NDJSON on one core, ${(ndjson.length / zipped.length).toFixed(1)}× smaller` +
      ` (this run's NDJSON export: ${(median('export NDJSON').bytes / perSecond).toFixed(2)} s of a core)`,
  );
}
await Promise.all(apps.map((app) => app.close()));
await database.drop();
