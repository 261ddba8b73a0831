import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from '@mdq/db';
import { createIndexedDatabase, type IndexedDatabase } from '@mdq/indexer/testing';
import { computeCollectionRanking, createMediaRenderer, prerenderThumbnails } from '@mdq/worker';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

/*
 * The worker's pre-rendering on an indexed devnet chain: after it runs, the API's media requests
 * for the ranked collections' covers and first tokens are cache hits (the image server sees no
 * new request), and a broken image is recorded with its reason and retried after its backoff.
 */
describe('media-prerender', () => {
  let indexed: IndexedDatabase;
  let origin: Server;
  let cacheDir: string;
  let app: FastifyInstance;
  let base: string;
  const requests: string[] = [];
  let ranked: string[] = [];
  let broken = '';
  const now = new Date();

  const renderer = () =>
    createMediaRenderer({
      db: indexed.db,
      cacheDir,
      cacheBytes: 100 << 20,
      ipfsGateways: [],
      arweaveGateway: 'https://arweave.invalid/',
      allowPrivateAddresses: ['127.0.0.1'],
      timeoutMs: 5_000,
    });

  beforeAll(async () => {
    // Metadata per token naming a PNG whose colour comes from the path; one path is not an image.
    origin = createServer((req, res) => {
      const path = req.url ?? '/';
      requests.push(path);
      if (path.endsWith('.json')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ image: `${base}/img${path.replace(/\.json$/, '.png')}` }));
        return;
      }
      if (path === '/broken.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end('these bytes are not a PNG');
        return;
      }
      const shade = [...path].reduce((n, ch) => (n * 31 + ch.charCodeAt(0)) % 256, 7);
      void sharp({
        create: { width: 640, height: 480, channels: 3, background: { r: shade, g: 90, b: 200 } },
      })
        .png()
        .toBuffer()
        .then((png) => {
          res.writeHead(200, { 'content-type': 'image/png' });
          res.end(png);
        });
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;

    indexed = await createIndexedDatabase({ seed: 5, preset: 'tiny', endTimeMs: now.getTime() });
    // The devnet names its URIs under its own origin; served here from this test's origin instead.
    const devnetOrigin = indexed.devnet.origin;
    await sql`UPDATE collections SET uri = replace(uri, ${devnetOrigin}, ${base}) || '.json'`.execute(
      indexed.db,
    );
    await sql`UPDATE tokens SET token_uri = replace(token_uri, ${devnetOrigin}, ${base})`.execute(indexed.db);
    await computeCollectionRanking(indexed.db, 'trending', now);
    await computeCollectionRanking(indexed.db, 'top', now);
    const { rows } = await sql<{ collection_id: string }>`
      SELECT DISTINCT collection_id FROM ranking_snapshots
       WHERE ranking IN ('trending', 'top') AND collection_id IS NOT NULL`.execute(indexed.db);
    ranked = rows.map((r) => r.collection_id);
    // One token of a ranked collection points at bytes that are no image.
    const victim = await sql<{ token_data_id: string }>`
      SELECT token_data_id FROM tokens WHERE collection_id = ${ranked[0] ?? ''} AND NOT is_burned
       ORDER BY token_name LIMIT 1`.execute(indexed.db);
    broken = victim.rows[0]?.token_data_id ?? '';
    await sql`UPDATE tokens SET token_uri = ${`${base}/broken.png`} WHERE token_data_id = ${broken}`.execute(
      indexed.db,
    );
    cacheDir = await mkdtemp(join(tmpdir(), 'mdq-prerender-'));
    // The API's own renderer over the same directory: another process's cache, as in production.
    app = await buildApp({ db: indexed.db, network: 'local', media: await renderer() });
  }, 240_000);

  afterAll(async () => {
    await app?.close();
    origin?.close();
    await indexed?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  it('renders covers and first token pages so that the API answers from the cache', async () => {
    expect(ranked.length).toBeGreaterThan(0);
    expect(broken).not.toBe('');
    const result = await prerenderThumbnails(indexed.db, await renderer(), now);
    expect(result.failed).toBe(1);
    expect(result.rendered).toBeGreaterThan(ranked.length);

    const { rows: done } = await sql<{ media_id: string }>`
      SELECT media_id FROM media_renders WHERE status = 'ok' AND width = 256 AND format = 'webp'`.execute(
      indexed.db,
    );
    expect(done.length).toBe(result.rendered);
    const ids = done.map((r) => r.media_id);
    for (const collectionId of ranked) expect(ids).toContain(collectionId);

    const before = requests.length;
    for (const id of ids) {
      const res = await app.inject({ url: `/local/api/media/${id}?w=256&format=webp` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['x-media-cache'], id).toBe('hit');
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.format, meta.width]).toEqual(['webp', 256]);
    }
    expect(requests.length).toBe(before);
  });

  it('records a failing image with its reason and retries it only after its backoff', async () => {
    const record = async () =>
      (
        await sql<{ status: string; reason: string; attempts: number; delay_s: number }>`
          SELECT status, reason, attempts, extract(epoch FROM next_attempt_at - attempted_at)::int AS delay_s
            FROM media_renders WHERE media_id = ${broken}`.execute(indexed.db)
      ).rows[0];
    expect(await record()).toMatchObject({ status: 'failed', attempts: 1, delay_s: 60 });
    expect((await record())?.reason).toMatch(/MediaRefusedError: not a readable image/);
    const hitsOfBroken = () => requests.filter((p) => p === '/broken.png').length;
    expect(hitsOfBroken()).toBe(1);

    // Within the backoff: not fetched again.
    const soon = await prerenderThumbnails(indexed.db, await renderer(), new Date(now.getTime() + 30_000));
    expect(soon).toMatchObject({ failed: 0, waiting: 1, rendered: 0 });
    expect(hitsOfBroken()).toBe(1);

    // After it: fetched again, still failing, the next wait doubled.
    const later = await prerenderThumbnails(indexed.db, await renderer(), new Date(now.getTime() + 61_000));
    expect(later).toMatchObject({ failed: 1, waiting: 0, rendered: 0 });
    expect(hitsOfBroken()).toBe(2);
    expect(await record()).toMatchObject({ status: 'failed', attempts: 2, delay_s: 120 });

    // The API answers the same id with a clear refusal, not a 500.
    const res = await app.inject({ url: `/local/api/media/${broken}?w=256&format=webp` });
    expect(res.statusCode).toBe(422);
  });
});
