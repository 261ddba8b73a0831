import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { loadInventoryHistory, loadLootboxTierTable } from '@mdq/db/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSignals } from '../src/signals/load-signals';
import { parseSignals, SignalFormatError } from '../src/signals/parse-signals';
import { recomputeAll } from '../src/tasks/recompute-all';
import { addr, HOUR, insertCollection, insertListing, insertOwnership, insertToken } from './helpers';

let t: TestDatabase;
let db: Db;

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
});

afterAll(async () => {
  await t.drop();
});

describe('social signals', () => {
  it('parses CSV (any column order, quoted cells) and JSON lines', () => {
    expect(
      parseSignals('engagement,collection_id,observed_on,source\n12.5,0xAB,2026-11-20,"x, twitter"\n'),
    ).toEqual([
      { collectionId: addr(0xab), observedOn: '2026-11-20', engagement: 12.5, source: 'x, twitter' },
    ]);
    expect(parseSignals('{"collection_id":"0x1","observed_on":"2026-11-19","engagement":3}\n\n')).toEqual([
      { collectionId: addr(1), observedOn: '2026-11-19', engagement: 3, source: null },
    ]);
    expect(() => parseSignals('collection_id,observed_on,engagement\n0x1,yesterday,3')).toThrow(
      /line 2: observed_on/,
    );
    expect(() => parseSignals('collection_id,observed_on,engagement\n0x1,2026-11-19,-1')).toThrow(
      SignalFormatError,
    );
    expect(() => parseSignals('name,engagement\nx,1')).toThrow(/header/);
  });

  it('loads a file and replaces the same collection and day', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mdq-signals-'));
    const file = join(dir, 'signals.csv');
    await writeFile(
      file,
      'collection_id,observed_on,engagement\n0x1,2026-11-20,5\n0x1,2026-11-20,7\n0x2,2026-11-20,1\n',
    );
    expect(await loadSignals(db, file)).toEqual({ rows: 3 });
    await loadSignals(db, file);
    const rows = await db.selectFrom('social_signals').selectAll().orderBy('collection_id').execute();
    expect(rows.map((r) => [r.collection_id, r.observed_on, r.engagement])).toEqual([
      [addr(1), '2026-11-20', 7],
      [addr(2), '2026-11-20', 1],
    ]);
  });
});

describe('inventory history and lootbox tiers', () => {
  it('snapshots holders hourly at the floor of the hour and serves the buckets', async () => {
    const c = addr(0xc1);
    const owner = addr(0x0a1);
    await insertCollection(db, c);
    for (const n of [1, 2]) {
      await insertToken(db, addr(0xc100 + n), c);
      await insertOwnership(db, addr(0xc100 + n), c, owner);
    }
    await insertListing(db, {
      collectionId: c,
      tokenId: addr(0xc101),
      price: '250',
      status: 'active',
      listedAt: new Date('2026-11-01T00:00:00Z'),
    });
    const now = new Date('2026-11-20T10:05:00Z');
    await recomputeAll(db, now);
    await recomputeAll(db, new Date(now.getTime() + HOUR));
    const rows = await db.selectFrom('user_inventory_snapshots').selectAll().orderBy('snapshot_at').execute();
    expect(rows.map((r) => [r.snapshot_at.toISOString(), r.token_count, r.floor_value])).toEqual([
      ['2026-11-20T10:00:00.000Z', 2, '500'],
      ['2026-11-20T11:00:00.000Z', 2, '500'],
    ]);
    const day = await loadInventoryHistory(db, owner, '24h', new Date(now.getTime() + HOUR));
    expect(day.length).toBe(25);
    expect(day.at(-1)).toMatchObject({ tokenCount: 2, floorValue: '500' });
    expect(day[0]).toMatchObject({ tokenCount: null });
    const all = await loadInventoryHistory(db, owner, 'all', new Date(now.getTime() + HOUR));
    expect(all.at(-1)).toMatchObject({ tokenCount: 2 });
    // The wallet empties: the next hour records a zero point.
    await db.deleteFrom('token_ownerships').where('owner_address', '=', owner).execute();
    await recomputeAll(db, new Date(now.getTime() + 2 * HOUR));
    const last = await db
      .selectFrom('user_inventory_snapshots')
      .selectAll()
      .orderBy('snapshot_at', 'desc')
      .executeTakeFirstOrThrow();
    expect([last.token_count, last.floor_value]).toEqual([0, '0']);
  });

  it('lootbox tier table with probabilities', async () => {
    await db
      .insertInto('lootbox_tiers')
      .values([
        { lootbox_id: 9, tier_name: 'common', position: 0, weight: '75', max_supply: '100', minted: '3' },
        { lootbox_id: 9, tier_name: 'rare', position: 1, weight: '25', max_supply: '10', minted: '1' },
      ])
      .execute();
    expect(await loadLootboxTierTable(db, 9)).toEqual([
      { tierName: 'common', position: 0, weight: '75', probability: 0.75, maxSupply: '100', minted: '3' },
      { tierName: 'rare', position: 1, weight: '25', probability: 0.25, maxSupply: '10', minted: '1' },
    ]);
  });
});
