import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, validateMetadata } from '../src/index';
import { type ApiHarness, addr, createHarness } from './support/fixtures';

const CREATOR = addr(0xc1);
const HOLDER = addr(0xa1);
const SNAPSHOTTED = addr(0xa2);
const CATS = addr(0x100);

describe('user and utility routes', () => {
  let h: ApiHarness;

  beforeAll(async () => {
    h = await createHarness();
    const { fx } = h;
    await fx.collection({ id: CATS, creator: CREATOR, name: 'Cats' });
    await fx.collection({ id: addr(0x101), creator: addr(0xc2), name: 'Twins' });
    await fx.collection({ id: addr(0x102), creator: addr(0xc3), name: 'Twins' });
    for (let n = 1; n <= 3; n++) {
      await fx.token({
        id: addr(0x1000 + n),
        collectionId: CATS,
        creator: CREATOR,
        collection: 'Cats',
        name: `Cat #${n}`,
      });
      await fx.ownership({ tokenId: addr(0x1000 + n), owner: HOLDER, collectionId: CATS });
    }
    await fx.listing({
      id: 'l',
      tokenId: addr(0x1001),
      tokenName: 'Cat #1',
      collectionId: CATS,
      collection: 'Cats',
      creator: CREATOR,
      seller: HOLDER,
      price: '700',
      version: 9,
    });
    // Times relative to the current hour's start, so that the first two share an hourly bucket.
    const hour = Math.floor(Date.now() / 3_600_000);
    for (const [hoursBefore, count, value] of [
      [2 - 10 / 60, 1, '100'],
      [2 - 40 / 60, 2, '200'],
      [1 - 5 / 60, 3, '300'],
      [24 * 10, 9, '900'],
    ] as const) {
      await h.test.db
        .insertInto('user_inventory_snapshots')
        .values({
          owner_address: SNAPSHOTTED,
          snapshot_at: new Date((hour - hoursBefore) * 3_600_000),
          token_count: count,
          floor_value: value,
        })
        .execute();
    }
  });
  afterAll(() => h.close());

  it("inventory-history-data reads snapshots: the latest one by each bucket's end", async () => {
    const res = (await h.get(`/user/inventory-history-data?address=${SNAPSHOTTED}`)).json();
    expect(res.data).toMatchObject({ range: '24h', bucket: '1 hour' });
    const counts = res.data.points.map((p: { tokenCount: number }) => p.tokenCount);
    // Hourly buckets over 24 hours: the 10-day-old snapshot carries until the two recent hours.
    expect(counts.length).toBeGreaterThanOrEqual(24);
    expect(counts.slice(-3)).toEqual([2, 3, 3]);
    expect(counts[0]).toBe(9);
    expect(res.data.points.at(-3)).toMatchObject({ floorValue: '200', live: false });
    const all = (await h.get(`/local/user/inventory-history-data?address=${SNAPSHOTTED}&range=all`)).json();
    expect(all.data.bucket).toBe('7 days');
    expect(all.data.points[0].tokenCount).toBe(9);
    expect(all.data.points.at(-1).tokenCount).toBe(3);
    expect((await h.get(`/user/inventory-history-data?address=${SNAPSHOTTED}&range=1y`)).statusCode).toBe(
      400,
    );
  });

  it('inventory-history-data falls back to a live point for a holder without snapshots', async () => {
    const res = (await h.get(`/user/inventory-history-data?address=${HOLDER}&range=7d`)).json();
    expect(res.data.points).toEqual([
      { timestamp: expect.any(String), tokenCount: 3, floorValue: '2100', live: true },
    ]);
  });

  it('process-collection-uri-cache queues a collection by GET and by POST', async () => {
    const get = await h.get('/process-collection-uri-cache?collectionName=Cats');
    expect(get.statusCode).toBe(200);
    expect(get.json().data).toMatchObject({
      collectionId: CATS,
      status: 'pending',
      metadataUri: 'https://example.com/Cats.json',
    });
    const post = await h.app.inject({
      method: 'POST',
      url: '/local/api/process-collection-uri-cache',
      headers: { 'x-api-key': h.key, 'content-type': 'application/json' },
      payload: { collectionName: 'Cats', creatorAddress: '0xC1' },
    });
    expect(post.statusCode).toBe(200);
    expect(post.json().data.collectionId).toBe(CATS);
    expect((await h.get('/process-collection-uri-cache?collectionName=Twins')).json().code).toBe(
      'AMBIGUOUS_COLLECTION',
    );
    expect(
      (await h.get('/process-collection-uri-cache?collectionName=Twins&creatorAddress=0xc2')).statusCode,
    ).toBe(200);
    expect((await h.get('/process-collection-uri-cache?collectionName=Nope')).statusCode).toBe(404);
    expect((await h.get('/process-collection-uri-cache')).json().message).toContain("'collectionName'");
  });

  it('process-collection-uri-cache answers with what an injected resolver cached', async () => {
    const resolved: string[] = [];
    const app = await buildApp({
      db: h.test.db,
      network: 'local',
      resolveCollectionUri: async (collectionId) => {
        resolved.push(collectionId);
        const entry = {
          status: 'ok' as const,
          image_url: 'https://img.example.com/cats.png',
          content_type: 'image/png',
          attempts: 1,
        };
        await h.test.db
          .insertInto('collection_uri_cache')
          .values({ collection_id: collectionId, ...entry })
          .onConflict((oc) => oc.column('collection_id').doUpdateSet(entry))
          .execute();
      },
    });
    try {
      const res = await app.inject({
        url: `/local/api/process-collection-uri-cache?collectionName=Cats&creatorAddress=${CREATOR}`,
        headers: { 'x-api-key': h.key },
      });
      expect(resolved).toEqual([CATS]);
      expect(res.json().data).toMatchObject({
        status: 'ok',
        imageUrl: 'https://img.example.com/cats.png',
        attempts: 1,
      });
    } finally {
      await app.close();
    }
  });

  it('validate-metadata reports errors with paths and warnings', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/local/validate-metadata',
      headers: { 'x-api-key': h.key },
      payload: {
        image: 'https://cdn.example.com/1.png',
        attributes: [{ trait_type: 'Eyes', value: 'Green' }, { value: 'x' }],
        properties: {
          category: 'video',
          files: [{ uri: 'ipfs://bafy/1.mp4', type: 'video/mp4' }, { uri: 'nope' }],
        },
      },
    });
    expect(res.statusCode).toBe(200);
    const report = res.json().data;
    expect(report.valid).toBe(false);
    expect(report.errors.map((e: { path: string }) => e.path)).toEqual([
      '$.attributes[1].trait_type',
      '$.properties.files[1].uri',
      '$.properties.files[1].type',
    ]);
    expect(report.warnings.map((w: { path: string }) => w.path)).toEqual(['$.image', '$.animation_url']);
  });

  it('validate-metadata accepts a clean document and checks collections', () => {
    expect(
      validateMetadata(
        {
          image: 'ar://abc',
          external_url: 'https://arweave.net/x',
          attributes: [{ trait_type: 'A', value: 'b' }],
        },
        'token',
      ),
    ).toEqual({ valid: true, errors: [], warnings: [] });
    expect(validateMetadata({ external_url: 5 }, 'collection').errors).toEqual([
      { path: '$.image', message: 'is required' },
      { path: '$.external_url', message: 'must be a non-empty URL string' },
    ]);
    expect(validateMetadata([], 'token').valid).toBe(false);
  });
});
