import type { Db } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { loadCurrentFloors, readRanking } from '@mdq/db/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeAllRankings } from '../src/tasks/rankings';
import {
  addr,
  DAY,
  HOUR,
  insertCollection,
  insertListing,
  insertLootbox,
  insertOwnership,
  insertSale,
  insertToken,
} from './helpers';

const now = new Date('2026-11-20T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const [A, B, C, D, E] = [1, 2, 3, 4, 5].map((n) => addr(0xc000 + n)) as [
  string,
  string,
  string,
  string,
  string,
];
const buyer = (n: number) => addr(0xb000 + n);

let t: TestDatabase;
let db: Db;

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
  for (const id of [A, B, C, D, E]) await insertCollection(db, id);
  // A: 3 sales (100, 200, 300), buyers 1, 2, 2.  B: 1 sale of 1000.  C: two of 50.  D: 5000 eight days ago.
  await insertSale(db, { collectionId: A, price: '300', buyer: buyer(1), at: ago(1 * HOUR) });
  await insertSale(db, { collectionId: A, price: '100', buyer: buyer(2), at: ago(2 * DAY) });
  await insertSale(db, { collectionId: A, price: '200', buyer: buyer(2), at: ago(3 * DAY) });
  await insertSale(db, { collectionId: B, price: '1000', buyer: buyer(1), at: ago(5 * HOUR) });
  await insertSale(db, { collectionId: C, price: '50', buyer: buyer(3), at: ago(10 * HOUR) });
  await insertSale(db, { collectionId: C, price: '50', buyer: buyer(4), at: ago(6 * DAY) });
  await insertSale(db, { collectionId: D, price: '5000', buyer: buyer(5), at: ago(8 * DAY) });
  // E only sold for another coin: never in any field.
  await insertSale(db, {
    collectionId: E,
    price: '99999',
    buyer: buyer(6),
    at: ago(HOUR),
    coinType: '0xf::usdc::USDC',
  });

  // Floors now: A's only valid listing is 150 (the sold, cancelled, burned and non-APT ones never count).
  for (const [n, burned] of [
    [1, false],
    [2, false],
    [3, false],
    [4, true],
    [5, false],
  ] as const) {
    await insertToken(db, addr(0xa000 + n), A, burned);
  }
  await insertListing(db, {
    collectionId: A,
    tokenId: addr(0xa001),
    price: '150',
    status: 'active',
    listedAt: ago(DAY),
  });
  await insertListing(db, {
    collectionId: A,
    tokenId: addr(0xa002),
    price: '50',
    status: 'sold',
    listedAt: ago(2 * DAY),
    closedAt: ago(DAY),
  });
  await insertListing(db, {
    collectionId: A,
    tokenId: addr(0xa003),
    price: '60',
    status: 'cancelled',
    listedAt: ago(25 * DAY),
    closedAt: ago(10 * DAY),
  });
  await insertListing(db, {
    collectionId: A,
    tokenId: addr(0xa004),
    price: '40',
    status: 'active',
    listedAt: ago(3 * DAY),
  });
  await insertListing(db, {
    collectionId: A,
    tokenId: addr(0xa005),
    price: '70',
    status: 'active',
    listedAt: ago(DAY),
    coinType: '0xf::usdc::USDC',
  });
  // A 30 days ago: a listing of 300 open then (cancelled since) → floor change over 30 days −50%.
  await insertListing(db, {
    collectionId: A,
    tokenId: addr(0xa001),
    price: '300',
    status: 'cancelled',
    listedAt: ago(40 * DAY),
    closedAt: ago(20 * DAY),
  });
  await insertListing(db, {
    collectionId: B,
    tokenId: addr(0xb0b1),
    price: '500',
    status: 'active',
    listedAt: ago(2 * HOUR),
  });
  await insertListing(db, {
    collectionId: D,
    tokenId: addr(0xd0d1),
    price: '2000',
    status: 'active',
    listedAt: ago(35 * DAY),
  });
  // Snapshots just before the 24h window start: A 100 (→ +50%), B 1000 (→ −50%).
  for (const [id, floor] of [
    [A, '100'],
    [B, '1000'],
  ] as const) {
    await db
      .insertInto('collection_snapshots')
      .values({
        collection_id: id,
        snapshot_at: ago(DAY + 30 * 60_000),
        floor_price: floor,
        holder_count: 1,
        listed_count: 1,
        current_supply: '5',
      })
      .execute();
  }
  // Holders: A 3, B 1, C 2, D 0.
  for (const [id, owners] of [
    [A, [1, 2, 3]],
    [B, [1]],
    [C, [4, 5]],
  ] as const) {
    for (const o of owners)
      await insertOwnership(db, addr(0xe000 + o + 10 * [A, B, C].indexOf(id)), id, addr(0xf000 + o));
  }
  // Social engagement: A and C only (B's weight is spread).
  await db
    .insertInto('social_signals')
    .values([
      { collection_id: A, observed_on: '2026-11-20', engagement: 10, source: 'x' },
      { collection_id: C, observed_on: '2026-11-19', engagement: 5, source: 'x' },
    ])
    .execute();
  await insertLootbox(db, {
    id: 1,
    collectionId: addr(0x1b01),
    createdAt: ago(3 * DAY),
    mintStart: ago(2 * DAY),
  });
  await insertLootbox(db, {
    id: 2,
    collectionId: addr(0x1b02),
    createdAt: ago(DAY),
    mintStart: new Date(now.getTime() + DAY),
  });
  await insertLootbox(db, {
    id: 3,
    collectionId: addr(0x1b03),
    createdAt: ago(2 * DAY),
    mintStart: new Date(now.getTime() + 2 * HOUR),
  });
  await computeAllRankings(db, now);
});

afterAll(async () => {
  await t.drop();
});

const summary = async (name: Parameters<typeof readRanking>[1]) =>
  (await readRanking(db, name)).map((e) => [e.collectionId, Number(e.score.toFixed(4))]);

describe('rankings', () => {
  it('floor = lowest active native listing of an unburned token', async () => {
    const floors = await loadCurrentFloors(db, [A, B, C]);
    expect(floors.get(A)).toEqual({ collectionId: A, floor: '150', listed: 1 });
    expect(floors.get(B)?.floor).toBe('500');
    expect(floors.has(C)).toBe(false);
  });

  it('trending: volume 0.5, sales 0.3, unique buyers 0.2 over 7 days', async () => {
    // Percentiles (volume / sales / buyers): A .5/1/.5, B 1/0/0, C 0/.5/.5.
    expect(await summary('trending')).toEqual([
      [A, 0.65],
      [B, 0.5],
      [C, 0.25],
    ]);
    const [first] = await readRanking(db, 'trending');
    expect(first?.metrics).toMatchObject({ volume: '600', sales: 3, uniqueBuyers: 2, volumePercentile: 0.5 });
  });

  it('daily picks: volume 0.5, floor change 0.3, engagement 0.2, missing weights spread', async () => {
    // A: .5×.5 + .3×1 + .2×1; B (no engagement): (.5×1 + .3×0)/.8; C (no floor change): (.5×0 + .2×0)/.7.
    expect(await summary('daily_picks')).toEqual([
      [A, 0.75],
      [B, 0.625],
      [C, 0],
    ]);
    const [first] = await readRanking(db, 'daily_picks');
    expect(first?.metrics).toMatchObject({ floorPrice: '150', floorPriceAtStart: '100', floorChange: 0.5 });
  });

  it('top: volume 0.5, floor change 0.25, holders 0.25 over 30 days (floor at start rebuilt from listings)', async () => {
    // Volume pct C 0, A 1/3, B 2/3, D 1; floor change A −.5 → 0, D 0 → 1; holders D 0, B 1/3, C 2/3, A 1.
    expect(await summary('top')).toEqual([
      [D, 0.75],
      [B, Number(((0.5 * (2 / 3) + 0.25 / 3) / 0.75).toFixed(4))],
      [A, Number((0.5 / 3 + 0.25).toFixed(4))],
      [C, Number(((0.25 * (2 / 3)) / 0.75).toFixed(4))],
    ]);
  });

  it('recently added and upcoming lootboxes', async () => {
    expect((await readRanking(db, 'recent_added')).map((e) => e.lootboxId)).toEqual([2, 3, 1]);
    expect((await readRanking(db, 'upcoming')).map((e) => e.lootboxId)).toEqual([3, 2]);
  });

  it('records the run and refuses to roll back to an older computation', async () => {
    const run = await db
      .selectFrom('ranking_runs')
      .selectAll()
      .where('ranking', '=', 'trending')
      .executeTakeFirstOrThrow();
    expect(run.entries).toBe(3);
    expect(run.window_start?.toISOString()).toBe(ago(7 * DAY).toISOString());
    await computeAllRankings(db, ago(30 * DAY));
    expect((await readRanking(db, 'trending')).length).toBe(3);
  });
});
