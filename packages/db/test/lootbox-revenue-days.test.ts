import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lootboxRevenue, type Timeframe } from '../src/read';
import { createTestDatabase, type TestDatabase } from '../src/testing';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const APT = '0x1::aptos_coin::AptosCoin';
const USD = '0xf::usd::USD';
const WINDOW_MS: Record<Timeframe, number | null> = { '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY, all: null };

interface Purchase {
  version: number;
  lootbox: number;
  coin: string;
  amount: number;
  quantity: number;
  at: number;
}

/** A small deterministic generator, so a failure names a reproducible set of purchases. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/**
 * The revenue answer computed the plain way, from the purchases the test holds in memory: every
 * purchase of the lootbox in [now - window, now], summed per coin, coins in order.
 */
function expectedRevenue(purchases: readonly Purchase[], lootbox: number, timeframe: Timeframe, now: number) {
  const window = WINDOW_MS[timeframe];
  const sums = new Map<string, { amount: bigint; purchases: number; quantity: bigint }>();
  for (const p of purchases) {
    if (p.lootbox !== lootbox || p.at > now || (window !== null && p.at < now - window)) continue;
    const sum = sums.get(p.coin) ?? { amount: 0n, purchases: 0, quantity: 0n };
    sum.amount += BigInt(p.amount);
    sum.purchases += 1;
    sum.quantity += BigInt(p.quantity);
    sums.set(p.coin, sum);
  }
  return [...sums]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([coinType, s]) => ({
      coinType,
      amount: String(s.amount),
      purchases: s.purchases,
      quantity: String(s.quantity),
    }));
}

/*
 * lootbox-revenue reads whole UTC days from lootbox_revenue_days (kept by triggers on the
 * purchases) and its partial first and last days from the purchases. Checked against the plain
 * sum over purchases spread across 40 days, two coins and two lootboxes, at clock readings on,
 * just before and just after midnight and in the middle of a day, and after purchases are
 * inserted, updated, deleted and truncated.
 */
describe('lootbox revenue from kept day sums', () => {
  let test: TestDatabase;
  const start = Date.UTC(2026, 0, 1);
  const purchases: Purchase[] = [];
  const next = random(7);

  const insert = async (rows: Purchase[]) => {
    await test.db
      .insertInto('lootbox_purchases')
      .values(
        rows.map((p) => ({
          transaction_version: p.version,
          event_index: 0,
          lootbox_id: p.lootbox,
          buyer: '0xb',
          quantity: String(p.quantity),
          amount_paid: String(p.amount),
          coin_type: p.coin,
          transaction_timestamp: new Date(p.at).toISOString(),
        })),
      )
      .execute();
    purchases.push(...rows);
  };
  const generate = (count: number, fromVersion: number): Purchase[] =>
    Array.from({ length: count }, (_, i) => ({
      version: fromVersion + i,
      lootbox: next() < 0.7 ? 1 : 2,
      coin: next() < 0.8 ? APT : USD,
      amount: 1 + Math.floor(next() * 1_000_000),
      quantity: 1 + Math.floor(next() * 3),
      // Some purchases on exact midnights, the rest anywhere in the 40 days.
      at: next() < 0.05 ? start + Math.floor(next() * 40) * DAY : start + Math.floor(next() * 40 * DAY),
    }));
  /** Clock readings: each midnight's edges and middays across the purchases' days and past them. */
  const clocks = [0, 1, 6, 7, 8, 29, 30, 31, 39, 40, 45].flatMap((d) => {
    const midnight = start + d * DAY;
    return [midnight, midnight - 1, midnight + 1, midnight + 13 * HOUR + 17_000];
  });

  const expectAllWindows = async (what: string) => {
    for (const now of clocks) {
      for (const timeframe of Object.keys(WINDOW_MS) as Timeframe[]) {
        for (const lootbox of [1, 2]) {
          const answer = await lootboxRevenue(test.db, { lootboxId: lootbox }, timeframe, new Date(now));
          expect(
            answer?.revenue,
            `${what}: lootbox ${lootbox}, ${timeframe}, now ${new Date(now).toISOString()}`,
          ).toEqual(expectedRevenue(purchases, lootbox, timeframe, now));
        }
      }
    }
  };

  beforeAll(async () => {
    test = await createTestDatabase();
    for (const id of [1, 2]) {
      await test.db
        .insertInto('lootboxes')
        .values({
          lootbox_id: id,
          creator_address: '0xc',
          collection_name: `Box ${id}`,
          collection_id: `0x${id}`,
          price: '1',
          coin_type: APT,
          max_supply: '1000000',
          mint_start: new Date(start).toISOString(),
          mint_end: null,
          created_at: new Date(start).toISOString(),
          created_version: id,
          last_transaction_version: id,
        })
        .execute();
    }
  });
  afterAll(() => test?.drop());

  it('matches the plain sum after bulk and single inserts', async () => {
    await insert(generate(600, 1_000));
    for (const p of generate(5, 5_000)) await insert([p]);
    expect(purchases.some((p) => p.coin === USD && p.lootbox === 2)).toBe(true);
    await expectAllWindows('inserted');
  });

  it('follows updates and deletes of purchases', async () => {
    // Move some purchases to another day and coin, and delete others.
    await sql`UPDATE lootbox_purchases SET transaction_timestamp = transaction_timestamp + interval '1 day',
                coin_type = ${USD} WHERE transaction_version % 7 = 0`.execute(test.db);
    for (const p of purchases) {
      if (p.version % 7 === 0) {
        p.at += DAY;
        p.coin = USD;
      }
    }
    await sql`DELETE FROM lootbox_purchases WHERE transaction_version % 5 = 0`.execute(test.db);
    purchases.splice(0, purchases.length, ...purchases.filter((p) => p.version % 5 !== 0));
    // A lootbox whose purchases of one coin are all gone: that coin leaves its answer.
    await sql`DELETE FROM lootbox_purchases WHERE lootbox_id = 2 AND coin_type = ${USD}`.execute(test.db);
    purchases.splice(0, purchases.length, ...purchases.filter((p) => !(p.lootbox === 2 && p.coin === USD)));
    await expectAllWindows('updated and deleted');
  });

  it('is rebuilt after a truncate', async () => {
    await sql`TRUNCATE lootbox_purchases`.execute(test.db);
    purchases.length = 0;
    const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM lootbox_revenue_days`.execute(
      test.db,
    );
    expect(rows[0]?.n).toBe('0');
    await insert(generate(200, 10_000));
    await expectAllWindows('after truncate');
  });
});
