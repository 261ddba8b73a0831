/**
 * Metadata crawler benchmark (run: `pnpm --filter @mdq/bench bench:metadata`; `--count N` documents,
 * default 2,000, `--quick` 400; `--latency-ms L`, default 50). A local server answers every token
 * document after L ms (a remote host's round trip); the worker's crawler fetches, parses, validates
 * and writes them for 10 collections at once (the uri-cache queue's concurrency is 4 jobs; here all
 * 10 run together, so the per-host gate is the limit), with the default politeness (8 in flight per
 * host) and with 32. Baseline in the same run: the same documents fetched through the same SSRF-safe
 * fetcher with the same number in flight, nothing parsed or written (the network bound).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from '@mdq/db';
import { createTestDatabase } from '@mdq/db/testing';
import {
  crawlCollectionMetadata,
  METADATA_DEFAULTS,
  type MetadataCrawlOptions,
  metadataGate,
  safeFetch,
  trustedOriginSet,
} from '@mdq/worker';
import { benchFlags, numberFlag } from './flags';

const flags = benchFlags({ 'latency-ms': { type: 'string' } });
const count = numberFlag(flags, 'count', flags.count, 2_000, 400);
const latencyMs = numberFlag(flags, 'latency-ms', flags['latency-ms'], 50);
const COLLECTIONS = 10;
const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const fmt = (n: number) => n.toFixed(1);

const document = (n: number) =>
  JSON.stringify({
    name: `Bench #${n}`,
    description: 'A benchmark token with a typical document.',
    image: `ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/${n}.png`,
    external_url: `https://example.com/${n}`,
    attributes: ['Background', 'Body', 'Eyes', 'Mouth', 'Hat', 'Aura'].map((t, k) => ({
      trait_type: t,
      value: `v${(n * (k + 3)) % (5 + k)}`,
    })),
    properties: { files: [{ uri: `ipfs://bafy/${n}.png`, type: 'image/png' }], category: 'image' },
  });

const server = createServer((req, res) => {
  const n = Number(/\/(\d+)\.json$/.exec(req.url ?? '')?.[1] ?? -1);
  setTimeout(() => {
    if (n < 0) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(document(n));
  }, latencyMs);
});
server.keepAliveTimeout = 10_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const database = await createTestDatabase();
const db = database.db;
for (let c = 0; c < COLLECTIONS; c++) {
  await sql`INSERT INTO collections (collection_id, token_standard, creator_address, collection_name, uri,
              created_at, created_version, last_transaction_version)
            VALUES (${id(1_000_000 + c)}, 'v2', ${id(1)}, ${`Bench ${c}`}, ${`${origin}/c${c}.json`}, now(), 1, 1)`.execute(
    db,
  );
}
await sql`INSERT INTO tokens (token_data_id, token_standard, collection_id, token_name, token_uri, last_transaction_version)
          SELECT '0x' || lpad(to_hex(n), 64, '0'), 'v2', '0x' || lpad(to_hex(1000000 + n % ${COLLECTIONS}), 64, '0'),
                 'Bench #' || n, ${origin} || '/' || n || '.json', 1
            FROM generate_series(0, ${count - 1}) n`.execute(db);

async function crawl(hostConcurrency: number) {
  await sql`TRUNCATE metadata_documents`.execute(db);
  await sql`DELETE FROM token_attributes`.execute(db);
  const options: MetadataCrawlOptions = {
    ipfsGateways: [],
    arweaveGateway: 'https://arweave.invalid/',
    trustedOrigins: [origin],
    hostConcurrency,
    hostIntervalMs: 0,
  };
  options.gate = metadataGate(options);
  const phases = { listMs: 0, fetchWallMs: 0, writeMs: 0, fetchMs: 0, parseMs: 0 };
  let fetched = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: COLLECTIONS }, async (_, c) => {
      for (;;) {
        const r = await crawlCollectionMetadata(db, id(1_000_000 + c), options);
        fetched += r.fetched;
        for (const k of Object.keys(phases) as (keyof typeof phases)[]) phases[k] += r.phases[k];
        if (!r.more) return;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const wall = phases.listMs + phases.fetchWallMs + phases.writeMs;
  const pct = (ms: number, of: number) => `${fmt((100 * ms) / of)}%`;
  return {
    'documents/s': fmt(fetched / seconds),
    'job time: list': pct(phases.listMs, wall),
    'job time: fetch + parse': pct(phases.fetchWallMs, wall),
    'job time: write + rarity': pct(phases.writeMs, wall),
    'per document: fetch ms (with gate wait)': fmt(phases.fetchMs / fetched),
    'per document: parse ms': fmt(phases.parseMs / fetched),
  };
}

async function bareFetch(inFlight: number) {
  const fetchOptions = {
    timeoutMs: METADATA_DEFAULTS.timeoutMs,
    maxBytes: METADATA_DEFAULTS.maxBytes,
    maxRedirects: METADATA_DEFAULTS.maxRedirects,
    trustedOrigins: trustedOriginSet([origin]),
  };
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let n = next++; n < count; n = next++) await safeFetch(`${origin}/${n}.json`, fetchOptions);
    }),
  );
  return { 'documents/s': fmt(count / ((performance.now() - start) / 1000)) };
}

const gate = METADATA_DEFAULTS.hostConcurrency;
console.table({
  [`baseline: fetch only, ${gate} in flight`]: await bareFetch(gate),
  [`crawler, ${gate} per host (default)`]: await crawl(gate),
  'baseline: fetch only, 32 in flight': await bareFetch(32),
  'crawler, 32 per host': await crawl(32),
});
console.log(
  `${count} token documents (+${COLLECTIONS} collection documents answering 404) in ${COLLECTIONS} collections, ${latencyMs} ms server latency, one host`,
);
server.close();
await database.drop();
