import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey, sql } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { createMediaRenderer, MediaCache } from '@mdq/worker';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

async function listen(server: Server, host: string): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

/*
 * Thumbnails against a local origin serving generated images. The renderer may reach 127.0.0.1
 * (the test origin) and nothing else private: a second server on 127.0.0.2 stands for the
 * internal network and must never see a request.
 */
describe('GET /:network/api/media/:id', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let origin: Server;
  let internal: Server;
  let cacheDir: string;
  const hits: Record<string, number> = {};
  let internalHits = 0;
  const files: Record<string, { type: string; body: Buffer }> = {};

  beforeAll(async () => {
    const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
    const jpeg = await sharp({ create: { width: 900, height: 1800, channels: 3, background: '#3c3' } })
      .jpeg()
      .toBuffer();
    // Two frames of different colours: the thumbnail must be the first.
    const frame = (colour: string) =>
      sharp({ create: { width: 600, height: 400, channels: 3, background: colour } })
        .png()
        .toBuffer();
    const animated = await sharp([await frame('#00f'), await frame('#ff0')], { join: { animated: true } })
      .gif({ loop: 0, delay: [100, 100] })
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(2);
    const huge = await sharp({ create: { width: 12_000, height: 12_000, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();

    internal = createServer((_req, res) => {
      internalHits++;
      res.end('secret');
    });
    const internalBase = await listen(internal, '127.0.0.2');

    origin = createServer((req, res) => {
      const path = req.url ?? '/';
      hits[path] = (hits[path] ?? 0) + 1;
      if (path === '/slow.png') {
        setTimeout(() => res.end(files['/a.png']?.body), 5_000).unref();
        return;
      }
      if (path === '/redirect.png') {
        res.writeHead(302, { location: `${internalBase}/secret.png` });
        res.end();
        return;
      }
      const file = files[path];
      if (!file) {
        res.writeHead(404);
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': file.type });
      res.end(file.body);
    });
    const base = await listen(origin, '127.0.0.1');
    Object.assign(files, {
      '/a.png': { type: 'image/png', body: png },
      '/b.jpg': { type: 'image/jpeg', body: jpeg },
      '/c.gif': { type: 'image/gif', body: animated },
      '/d.svg': {
        type: 'image/svg+xml',
        body: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="1000"><rect width="2000" height="1000" fill="#09c"/></svg>',
        ),
      },
      '/evil.svg': {
        type: 'image/svg+xml',
        body: Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"><image xlink:href="${internalBase}/x.png" width="100" height="100"/></svg>`,
        ),
      },
      '/huge.png': { type: 'image/png', body: huge },
      '/meta.json': {
        type: 'application/json',
        body: Buffer.from(JSON.stringify({ image: `${base}/a.png` })),
      },
    });

    database = await createTestDatabase();
    const uris: [number, string][] = [
      [1, `${base}/meta.json`],
      [2, `${base}/b.jpg`],
      [3, `${base}/c.gif`],
      [4, `${base}/d.svg`],
      [5, `${base}/evil.svg`],
      [6, `${base}/huge.png`],
      [7, `${base}/slow.png`],
      [8, `${base}/redirect.png`],
    ];
    await sql`INSERT INTO collections (collection_id, token_standard, creator_address, collection_name, uri,
                created_at, created_version, last_transaction_version)
              VALUES (${id(100)}, 'v2', ${id(99)}, 'Media', ${`${base}/b.jpg`}, now(), 1, 1)`.execute(
      database.db,
    );
    // A token without a URI: no thumbnail to link.
    await sql`INSERT INTO tokens (token_data_id, token_standard, collection_id, token_name, token_uri,
                last_transaction_version) VALUES (${id(9)}, 'v2', ${id(100)}, 'T9', NULL, 1)`.execute(
      database.db,
    );
    for (const [n, uri] of uris) {
      await sql`INSERT INTO tokens (token_data_id, token_standard, collection_id, token_name, token_uri,
                  last_transaction_version) VALUES (${id(n)}, 'v2', ${id(100)}, ${`T${n}`}, ${uri}, 1)`.execute(
        database.db,
      );
    }
    cacheDir = await mkdtemp(join(tmpdir(), 'mdq-media-'));
    const media = await createMediaRenderer({
      db: database.db,
      cacheDir,
      cacheBytes: 50 << 20,
      ipfsGateways: [],
      arweaveGateway: `${base}/ar/`,
      allowPrivateAddresses: ['127.0.0.1'],
      timeoutMs: 2_000,
    });
    app = await buildApp({ db: database.db, network: 'local', media });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    origin?.close();
    internal?.close();
    await database?.drop();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  const media = (path: string, headers: Record<string, string> = {}) =>
    app.inject({ url: `/local/api/media/${path}`, headers });

  it('renders a PNG named by metadata to the width and format asked, then serves it from the cache', async () => {
    const first = await media(`${id(1)}?w=256&format=webp`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toBe('image/webp');
    expect(first.headers['x-media-cache']).toBe('miss');
    expect(first.headers['cache-control']).toMatch(/max-age=\d{6,}/);
    const meta = await sharp(first.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 171]);

    const originHits = hits['/a.png'];
    const second = await media(`${id(1)}?w=256&format=webp`);
    expect(second.headers['x-media-cache']).toBe('hit');
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(hits['/a.png']).toBe(originHits);
    expect(String(first.headers.etag)).toMatch(/^"[A-Za-z0-9_-]{43}"$/);

    const notModified = await media(`${id(1)}?w=256&format=webp`, {
      'if-none-match': String(first.headers.etag),
    });
    expect(notModified.statusCode).toBe(304);

    // The short, upper-case form names the same token: the address plugin normalizes path ids too.
    const short = `0x${id(1).slice(2).replace(/^0+/, '').toUpperCase()}`;
    const same = await media(`${short}?w=256&format=webp`);
    expect([same.statusCode, same.headers['x-media-cache'], same.headers.etag]).toEqual([
      200,
      'hit',
      first.headers.etag,
    ]);
  });

  it.each([
    [2, 64, 'avif', 'heif', 32, 64],
    [3, 512, 'png', 'png', 512, 341],
    [4, 1024, 'png', 'png', 1024, 512],
    [100, 256, 'png', 'png', 128, 256],
  ] as const)('token %i at w=%i as %s', async (n, w, format, sharpFormat, width, height) => {
    const res = await media(`${id(n)}?w=${w}&format=${format}`);
    expect(res.statusCode, res.body).toBe(200);
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual([sharpFormat, width, height]);
    expect(meta.pages ?? 1).toBe(1);
  });

  it('takes the first frame of an animated GIF', async () => {
    const res = await media(`${id(3)}?w=64&format=png`);
    const { data } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
    // First frame blue (#00f), second yellow.
    expect([data[0], data[1], data[2]]).toEqual([0, 0, 255]);
  });

  it('refuses an SVG with external references, a huge image, and a redirect to a private address', async () => {
    const evil = await media(`${id(5)}?w=64`);
    expect(evil.statusCode).toBe(422);
    expect(evil.json()).toMatchObject({ code: 'MEDIA_REFUSED', message: expect.stringMatching(/external/) });
    const huge = await media(`${id(6)}?w=64`);
    expect(huge.statusCode).toBe(422);
    expect(huge.json().message).toMatch(/too large|pixel/);
    const redirect = await media(`${id(8)}?w=64`);
    expect(redirect.statusCode).toBe(422);
    // The refusal names no address (reliability: DNS answers of internal names are never echoed).
    expect(redirect.json().message).toMatch(/refused: private address/);
    expect(hits['/redirect.png']).toBe(1);
    expect(internalHits).toBe(0);
  });

  it('answers 503 when the origin is too slow, 404 for an unknown id, 400 for a width not offered', async () => {
    const slow = await media(`${id(7)}?w=64`);
    expect(slow.statusCode).toBe(503);
    expect(slow.json()).toMatchObject({ code: 'MEDIA_UNAVAILABLE' });
    expect((await media(`${id(4242)}?w=64`)).statusCode).toBe(404);
    const bad = await media(`${id(1)}?w=100`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/'w'/);
  });

  it('links every token and collection to its thumbnail with an absolute URL from the public address', async () => {
    const { key } = await createApiKey(database.db, { name: 'thumbnails' });
    const proxied = await buildApp({
      db: database.db,
      network: 'local',
      media: { thumbnail: () => Promise.reject(new Error('not called')) },
      publicUrl: 'https://nft.example.com/mdq',
    });
    try {
      const query = `creator=${id(99)}&collection=Media`;
      const tokens = await proxied.inject({
        url: `/local/api/tokens-by-collection?${query}&limit=50`,
        headers: { 'x-api-key': key },
      });
      expect(tokens.statusCode, tokens.body).toBe(200);
      const rows = tokens.json().data as { tokenId: string; thumbnailUrl: string | null }[];
      expect(rows.length).toBe(9);
      for (const row of rows) {
        expect(row.thumbnailUrl).toBe(
          row.tokenId === id(9)
            ? null
            : `https://nft.example.com/mdq/local/api/media/${row.tokenId}?w=256&format=webp`,
        );
      }
      const search = await proxied.inject({
        url: '/local/api/market/search?text=Media',
        headers: { 'x-api-key': key },
      });
      expect(search.statusCode, search.body).toBe(200);
      const hit = search
        .json()
        .data.collections.find((c: { collectionId: string }) => c.collectionId === id(100));
      expect(hit?.thumbnailUrl).toBe(
        `https://nft.example.com/mdq/local/api/media/${id(100)}?w=256&format=webp`,
      );
      // The path of a linked URL serves that thumbnail (this app's renderer).
      const linked = new URL(rows.find((r) => r.tokenId === id(2))?.thumbnailUrl ?? '');
      const res = await media(`${id(2)}${linked.search}`);
      expect(res.statusCode).toBe(200);
      expect((await sharp(res.rawPayload).metadata()).width).toBe(128);

      // Without a configured address, the request's own origin (behind no proxy).
      const direct = await app.inject({
        url: `/local/api/tokens-by-collection?${query}&limit=1`,
        headers: { 'x-api-key': key, host: 'api.test:8080' },
      });
      expect(direct.json().data[0].thumbnailUrl).toMatch(
        /^http:\/\/api\.test:8080\/local\/api\/media\/0x[0-9a-f]{64}\?w=256&format=webp$/,
      );
    } finally {
      await proxied.close();
    }
  });

  it('keeps the disk cache under its cap, evicting the least recently used file', async () => {
    const dir = join(cacheDir, 'lru');
    const cache = new MediaCache(dir, 3000);
    await cache.load();
    const keys = ['a', 'b', 'c'].map((k) => MediaCache.keyOf(k, 64, 'png'));
    await cache.put(keys[0] ?? '', Buffer.alloc(1200, 1));
    await cache.put(keys[1] ?? '', Buffer.alloc(1200, 2));
    expect(await cache.get(keys[0] ?? '')).not.toBeNull(); // a is now the most recent
    await cache.put(keys[2] ?? '', Buffer.alloc(1200, 3));
    expect(cache.size).toBeLessThanOrEqual(3000);
    // The evicted file is unlinked in the background: poll until it is gone, with a deadline.
    const files = async () => (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.png'));
    for (let i = 0; i < 100 && (await files()).length > 2; i++) await new Promise((r) => setTimeout(r, 50));
    const left = await files();
    expect(left.map((f) => f.slice(-68)).sort()).toEqual([keys[0], keys[2]].sort());
  });
});
