/**
 * Thumbnail benchmark (run: `pnpm --filter @mdq/bench bench:media`; `--images N`, default 60;
 * `--quick` for 15). A local origin serves N distinct 1600 × 1200 JPEGs; GET /media/:id?w=256
 * through the API is timed cold (fetch + resize + encode + cache write) and warm (disk cache),
 * next to a baseline measured in the same run: sharp alone on the same bytes in memory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '@mdq/api';
import { sql } from '@mdq/db';
import { createTestDatabase } from '@mdq/db/testing';
import { createMediaRenderer, renderThumbnail } from '@mdq/worker';
import sharp from 'sharp';
import { benchFlags, numberFlag } from './flags';

const flags = benchFlags({ images: { type: 'string' } });
const count = numberFlag(flags, 'images', flags.images ?? flags.count, 60, 15);
const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const fmt = (n: number) => n.toFixed(1);

const images: Buffer[] = [];
for (let i = 0; i < count; i++) {
  images.push(
    await sharp({
      create: { width: 1600, height: 1200, channels: 3, background: { r: i % 256, g: (i * 7) % 256, b: 90 } },
    })
      .composite([
        {
          input: Buffer.from(
            `<svg width="800" height="600"><circle cx="400" cy="300" r="${100 + i}" fill="#fff"/></svg>`,
          ),
        },
      ])
      .jpeg({ quality: 90 })
      .toBuffer(),
  );
}
const origin = createServer((req, res) => {
  const n = Number(/\/(\d+)\.jpg$/.exec(req.url ?? '')?.[1] ?? -1);
  const body = images[n];
  if (!body) {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': 'image/jpeg' });
  res.end(body);
});
await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;

const database = await createTestDatabase();
await sql`INSERT INTO collections (collection_id, token_standard, creator_address, collection_name, created_at,
            created_version, last_transaction_version) VALUES (${id(1 << 20)}, 'v2', ${id(1)}, 'Bench', now(), 1, 1)`.execute(
  database.db,
);
for (let i = 0; i < count; i++) {
  await sql`INSERT INTO tokens (token_data_id, token_standard, collection_id, token_name, token_uri,
              last_transaction_version) VALUES (${id(i)}, 'v2', ${id(1 << 20)}, ${`T${i}`}, ${`${base}/${i}.jpg`}, 1)`.execute(
    database.db,
  );
}
const cacheDir = await mkdtemp(join(tmpdir(), 'mdq-media-bench-'));
const media = await createMediaRenderer({
  db: database.db,
  cacheDir,
  cacheBytes: 1 << 30,
  ipfsGateways: [],
  arweaveGateway: `${base}/`,
  allowPrivateAddresses: ['127.0.0.1'],
});
const app = await buildApp({ db: database.db, network: 'local', media });

let t0 = performance.now();
for (const image of images) await renderThumbnail(image, 256, 'webp');
const baseline = count / ((performance.now() - t0) / 1000);

async function pass(expected: 'hit' | 'miss'): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const res = await app.inject({ url: `/local/api/media/${id(i)}?w=256&format=webp` });
    if (res.statusCode !== 200 || res.headers['x-media-cache'] !== expected) {
      throw new Error(`image ${i}: HTTP ${res.statusCode}, cache ${res.headers['x-media-cache']}`);
    }
  }
  return count / ((performance.now() - start) / 1000);
}
t0 = performance.now();
const cold = await pass('miss');
const warm = await pass('hit');
console.table({
  'sharp only (baseline)': { 'thumbnails/s': fmt(baseline) },
  'API cold (fetch + render + cache)': { 'thumbnails/s': fmt(cold) },
  'API warm (disk cache)': { 'thumbnails/s': fmt(warm) },
});
console.log(`${count} distinct 1600×1200 JPEG originals → 256 px WebP`);
await app.close();
origin.close();
await database.drop();
await rm(cacheDir, { recursive: true, force: true });
