import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/** A small deterministic generator, so a failure names a reproducible sequence of writes. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const STATUSES = ['active', 'active', 'sold', 'cancelled'] as const;

/*
 * active_listings is kept by triggers on listings (migration 2026-12-12T1000): after any write it
 * must hold exactly the listings whose status is 'active', column for column. Checked against
 * `listings` itself after random upserts (new listings, relistings, price changes, closings, renamed
 * collections, rows repeated unchanged), updates, deletes, a rolled-back transaction and a TRUNCATE,
 * with their counts per (creator, collection name), nulls included; and its read
 * counter, which keys the listing-card answers, moves only when an active listing changed.
 */
describe('active listings kept by triggers', () => {
  let test: TestDatabase;
  const next = random(11);

  const mirrored = async (what: string) => {
    const rows = async (from: string) =>
      (
        await sql<{ row: string }>`SELECT l::text AS row FROM ${sql.table(from)} l
           WHERE ${from === 'listings' ? sql`l.status = 'active'` : sql`true`} ORDER BY l.marketplace, l.listing_id`.execute(
          test.db,
        )
      ).rows.map((r) => r.row);
    expect(await rows('active_listings'), what).toEqual(await rows('listings'));
    const counts = await sql<{ row: string }>`
      SELECT (k.creator_address, k.collection_name, k.listings)::text AS row FROM active_listing_counts k
       ORDER BY 1`.execute(test.db);
    const counted = await sql<{ row: string }>`
      SELECT (l.creator_address, l.collection_name, count(*)::int)::text AS row FROM listings l
       WHERE l.status = 'active' GROUP BY l.creator_address, l.collection_name ORDER BY 1`.execute(test.db);
    expect(counts.rows, `${what}: counts`).toEqual(counted.rows);
  };
  const counter = async () =>
    Number(
      (
        await sql<{ v: string }>`SELECT coalesce(sum(version), 0)::text AS v FROM read_versions
           WHERE source = 'active_listings'`.execute(test.db)
      ).rows[0]?.v,
    );
  /** One statement upserting `count` listings drawn from 40 keys, as the indexer's writer does. */
  const upsert = async (count: number, version: number) => {
    const keys = new Set<number>();
    while (keys.size < count) keys.add(Math.floor(next() * 40));
    const values = [...keys].map(
      (k) =>
        sql`(${`m${k % 2}`}, ${`l${k}`}, '0xm', ${`0xt${k}`}, ${`0xc${k % 3}`}, ${`Token #${k}`},
             ${k % 5 === 0 ? null : `0xcreator${k % 2}`}, ${k % 7 === 0 ? null : `Herd ${k % 3}`},
             ${String(100 + Math.floor(next() * 5))}::numeric, ${STATUSES[Math.floor(next() * STATUSES.length)]},
             ${version}, ${version}, '0xs')`,
    );
    await sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, collection_id,
                token_name, creator_address, collection_name, price, status, last_transaction_version,
                listed_version, seller)
              VALUES ${sql.join(values)}
              ON CONFLICT (marketplace, listing_id) DO UPDATE
                SET price = excluded.price, status = excluded.status, collection_name = excluded.collection_name,
                    last_transaction_version = excluded.last_transaction_version,
                    listed_version = excluded.listed_version`.execute(test.db);
  };

  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  it('holds exactly the active listings after every kind of write', async () => {
    for (let round = 1; round <= 60; round++) {
      await upsert(1 + Math.floor(next() * 12), round);
      await mirrored(`upsert ${round}`);
      if (round % 5 === 0) {
        await sql`UPDATE listings SET status = 'sold', closed_at = now()
                   WHERE status = 'active' AND price = ${String(100 + (round % 5))}::numeric`.execute(
          test.db,
        );
        await mirrored(`closing ${round}`);
        await sql`UPDATE listings SET seller = ${`0xs${round}`} WHERE listing_id LIKE ${`l${round % 4}%`}`.execute(
          test.db,
        );
        await mirrored(`seller ${round}`);
      }
      if (round % 7 === 0) {
        await sql`DELETE FROM listings WHERE listing_id IN (${`l${round % 40}`}, ${`l${(round * 3) % 40}`})`.execute(
          test.db,
        );
        await mirrored(`delete ${round}`);
      }
    }
    const active = await sql<{ n: number }>`SELECT count(*)::int AS n FROM active_listings`.execute(test.db);
    // The sequence leaves both kinds: the check is not vacuous.
    expect(active.rows[0]?.n).toBeGreaterThan(0);
    const closed = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM listings WHERE status <> 'active'`.execute(test.db);
    expect(closed.rows[0]?.n).toBeGreaterThan(0);

    await test.db
      .transaction()
      .execute(async (trx) => {
        await sql`UPDATE listings SET status = 'cancelled'`.execute(trx);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await mirrored('rolled back');

    await sql`TRUNCATE listings`.execute(test.db);
    await mirrored('truncate');
    await upsert(10, 1000);
    await mirrored('after truncate');
  });

  it('moves its read counter only when an active listing changed', async () => {
    await sql`TRUNCATE listings`.execute(test.db);
    await sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, price, status,
                last_transaction_version)
              VALUES ('m', 'open', '0xm', '0xt1', 5, 'active', 1), ('m', 'shut', '0xm', '0xt2', 5, 'sold', 1)`.execute(
      test.db,
    );
    const before = await counter();
    await sql`UPDATE listings SET closed_at = now() WHERE listing_id = 'shut'`.execute(test.db);
    await sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, price, status,
                last_transaction_version) VALUES ('m', 'gone', '0xm', '0xt3', 5, 'cancelled', 2)`.execute(
      test.db,
    );
    // An upsert that repeats the active listing as it is stored.
    await sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, price, status,
                last_transaction_version) VALUES ('m', 'open', '0xm', '0xt1', 5, 'active', 1)
              ON CONFLICT (marketplace, listing_id) DO UPDATE SET price = excluded.price`.execute(test.db);
    expect(await counter()).toBe(before);
    await sql`UPDATE listings SET price = 6 WHERE listing_id = 'open'`.execute(test.db);
    expect(await counter()).toBeGreaterThan(before);
    await mirrored('price change');
  });
});
