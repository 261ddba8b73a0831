import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { readRanking } from '@mdq/db/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextRun, SCHEDULES } from '../src/schedules';
import { startWorker } from '../src/start-worker';
import { RarityPacer } from '../src/tasks/rarity-pacer';
import type { StartWorkerOptions } from '../src/worker-options';
import { addr, insertCollection, insertSale, insertToken, insertTraits } from './helpers';
import { eventually, silentLogger } from './wait';

let t: TestDatabase;
let db: Db;

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
});

afterAll(async () => {
  await t.drop();
});

/** A worker without Redis on `on` that recomputes a changed collection at once. */
const inProcessWorker = (on: Db, extra: Partial<StartWorkerOptions> = {}) =>
  startWorker({
    db: on,
    redisUrl: null,
    logger: silentLogger,
    collectionChangedDelayMs: 0,
    rankingsRefreshWindowMs: 100,
    uri: { ipfsGateways: [], arweaveGateway: 'http://127.0.0.1:1/' },
    ...extra,
  });

describe('worker without Redis', () => {
  it('runs the same collection-changed processing in-process', async () => {
    const worker = await inProcessWorker(db);
    expect(worker.mode).toBe('in-process');
    const id = addr(0x8888);
    await insertCollection(db, id);
    await insertSale(db, { collectionId: id, price: '7', buyer: addr(0xb2), at: new Date() });
    await insertToken(db, addr(0x8801), id);
    await insertTraits(db, addr(0x8801), id, { kind: 'only' });
    await worker.notifier.collectionsChanged([id, id], 5);
    await eventually(async () => {
      expect((await readRanking(db, 'trending')).map((e) => e.collectionId)).toEqual([id]);
      expect(await db.selectFrom('token_rarity').select('rank').execute()).toEqual([{ rank: 1 }]);
    });
    // Closing must finish (the test's own timeout catches a hang); how fast is for `pnpm bench`.
    await worker.close();
  });

  it('computes the aggregates at its clock when given one (a chain whose time is not now)', async () => {
    // A sale 400 days ago is outside trending's 7 days at the wall clock, inside at the given one.
    // Its own database: a ranking computed at the wall clock (the test above) is newer, and a run
    // never replaces a newer one.
    const own = await createTestDatabase();
    const db = own.db;
    const then = new Date(Date.now() - 400 * 86_400_000);
    const worker = await inProcessWorker(db, { clock: () => new Date(then.getTime() + 60_000) });
    const id = addr(0x8889);
    await insertCollection(db, id);
    await insertSale(db, { collectionId: id, price: '3', buyer: addr(0xb3), at: then });
    await worker.notifier.collectionsChanged([id], 6);
    await eventually(async () => {
      expect((await readRanking(db, 'trending')).map((e) => e.collectionId)).toContain(id);
      const run = await db
        .selectFrom('ranking_runs')
        .select('computed_at')
        .where('ranking', '=', 'trending')
        .executeTakeFirst();
      expect(run?.computed_at.getTime()).toBeLessThan(then.getTime() + 120_000);
    });
    await worker.close();
    await own.drop();
  });

  it('a crawl whose documents change traits recomputes rarity under the pace, as a collection-changed job would', async () => {
    // A document host on loopback: each token's document gives it one trait.
    const host = createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({ name: request.url, attributes: [{ trait_type: 'Hat', value: request.url }] }),
      );
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    const held = addr(0x7701);
    const free = addr(0x7702);
    for (const id of [held, free]) {
      await insertCollection(db, id);
      for (const n of [1, 2]) {
        const token = addr(Number.parseInt(id.slice(-4), 16) * 16 + n);
        await insertToken(db, token, id);
        await db
          .updateTable('tokens')
          .set({ token_uri: `${origin}/${token}.json` })
          .where('token_data_id', '=', token)
          .execute();
      }
    }
    // The pace holds `held` back for minutes (its last recompute took a minute), and no other
    // collection (no overall share).
    const pacer = new RarityPacer(0.1, 1);
    pacer.record(held, Date.now() - 60_000, Date.now());
    const worker = await inProcessWorker(db, {
      rarityPacer: pacer,
      collectionChangedDelayMs: 1_000,
      uri: { ipfsGateways: [], arweaveGateway: 'http://127.0.0.1:1/', trustedOrigins: [origin] },
    });
    const ranked = async (id: string) =>
      (await db.selectFrom('token_rarity').select('rank').where('collection_id', '=', id).execute()).length;
    const documents = async (id: string) =>
      (
        await db
          .selectFrom('metadata_documents')
          .select('subject_id')
          .where('collection_id', '=', id)
          .where('kind', '=', 'token')
          .execute()
      ).length;
    try {
      await worker.requestMetadataCrawl(free);
      await worker.requestMetadataCrawl(held);
      // The free collection's crawl recomputes at once.
      await eventually(async () => expect([await documents(free), await ranked(free)]).toEqual([2, 2]));
      // The held one's documents and traits are stored, and its recompute waits in a collection-changed
      // job instead of running in the crawl.
      await eventually(async () => {
        const counts = (await worker.jobCounts())['collection-changed'] ?? {};
        expect(await documents(held)).toBe(2);
        expect((counts['waiting'] ?? 0) + (counts['delayed'] ?? 0) + (counts['active'] ?? 0)).toBeGreaterThan(
          0,
        );
      });
      const attributes = await db
        .selectFrom('token_attributes')
        .select('value')
        .where('collection_id', '=', held)
        .execute();
      expect(attributes).toHaveLength(2);
      expect(await ranked(held)).toBe(0);
    } finally {
      await worker.close();
      host.close();
    }
  });

  it('runs the declared cron patterns on the in-process clock', () => {
    const at = Date.parse('2026-11-20T10:17:30Z');
    const when = (id: string) => {
      const s = SCHEDULES.find((x) => x.id === id);
      if (!s) throw new Error(id);
      return new Date(nextRun(s, at)).toISOString();
    };
    expect(when('collection-snapshots')).toBe('2026-11-20T11:00:00.000Z');
    expect(when('inventory-snapshots')).toBe('2026-11-20T11:02:00.000Z');
    expect(when('ranking-daily-picks')).toBe('2026-11-20T10:20:00.000Z');
    expect(when('ranking-trending')).toBe('2026-11-20T10:30:00.000Z');
    expect(when('ranking-top')).toBe('2026-11-20T10:30:00.000Z');
    expect(when('rarity-refresh')).toBe('2026-11-21T03:15:00.000Z');
    expect(when('ranking-lootboxes')).toBe('2026-11-20T10:18:00.000Z');
    expect(when('uri-cache-sweep')).toBe('2026-11-20T10:20:00.000Z');
    expect(when('read-versions-fold')).toBe('2026-11-20T10:40:00.000Z');
  });
});
