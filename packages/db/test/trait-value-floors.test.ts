import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src';
import { createTestDatabase, scopeVersion, seededRandom, type TestDatabase } from '../src/testing';

/*
 * trait_value_floors holds each trait value's lowest active listing price per coin type (migration
 * 2026-12-19T1000), kept by statement triggers on listings, token_attributes and tokens. Checked
 * after every write of a seeded random walk (listings opened, closed, repriced, moved to another
 * token or coin; attributes given, changed and taken away, of listed tokens and others; tokens
 * burned, unburned, moved to another collection, removed and stored again) against the floors
 * collection-trait-floors computed per request before (written out here as it was, over every
 * collection at once and per coin type).
 */
let t: TestDatabase;
let db: Db;
beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
});
afterAll(() => t?.drop());

type Floors = Record<string, string>;

interface FloorRow {
  collection_id: string;
  trait_type: string;
  value: string;
  coin_type: string | null;
  floor: string;
}

const asFloors = (rows: FloorRow[]): Floors =>
  Object.fromEntries(
    rows.map((r) => [`${r.collection_id} ${r.trait_type}=${r.value} ${r.coin_type ?? '-'}`, r.floor]),
  );

/** What the triggers kept. */
const kept = async (): Promise<Floors> =>
  asFloors(
    (
      await sql<FloorRow>`
        SELECT collection_id, trait_type, value, coin_type, floor::text AS floor FROM trait_value_floors`.execute(
        db,
      )
    ).rows,
  );

/**
 * The floors collection-trait-floors joined per request before they were kept: the active listings
 * of the collection joined with their token's attribute rows and their unburned token, all of the
 * collection, the lowest price per value (here per coin type too; the route keeps the native ones).
 */
const recounted = async (): Promise<Floors> =>
  asFloors(
    (
      await sql<FloorRow>`
        SELECT a.collection_id, a.trait_type, a.value, l.coin_type, min(l.price)::text AS floor
          FROM token_attributes a
          JOIN listings l ON l.token_data_id = a.token_data_id
          JOIN tokens t ON t.token_data_id = a.token_data_id AND t.collection_id = a.collection_id
         WHERE l.status = 'active' AND l.collection_id = a.collection_id AND NOT t.is_burned
         GROUP BY 1, 2, 3, 4`.execute(db)
    ).rows,
  );

const COLLECTIONS = ['A', 'B'];
/** Eight tokens, four per collection. */
const TOKENS = Array.from({ length: 8 }, (_, i) => ({
  id: `t${i}`,
  collection: COLLECTIONS[i % 2] as string,
}));
const TRAITS = ['fur', 'eyes'];
const VALUES = ['red', 'blue', 'gold'];
const COINS = [null, null, '0x1::other::Coin'];

/** One random write to one of the three tables, as a statement of its own. */
async function randomWrite(next: () => number, step: number): Promise<string> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const token = pick(TOKENS);
  const kind = Math.floor(next() * 12);
  const version = 1000 + step;
  switch (kind) {
    case 0:
    case 1:
    case 2: {
      // A listing opened, or an existing one's status, price, coin or token changed; now and then
      // stored under another collection than its token's.
      const id = `l${Math.floor(next() * 10)}`;
      const status = pick(['active', 'active', 'sold', 'cancelled']);
      const price = 10 + Math.floor(next() * 90);
      const coin = pick(COINS);
      const collection = next() < 0.1 ? pick(COLLECTIONS) : token.collection;
      await sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, collection_id,
                  seller, price, coin_type, status, last_transaction_version)
                VALUES ('m', ${id}, '0xm', ${token.id}, ${collection}, 'w1', ${price}, ${coin}, ${status}, ${version})
                ON CONFLICT (marketplace, listing_id) DO UPDATE
                  SET status = excluded.status, price = excluded.price, coin_type = excluded.coin_type,
                      token_data_id = excluded.token_data_id, collection_id = excluded.collection_id,
                      last_transaction_version = excluded.last_transaction_version`.execute(db);
      return `listing ${id} of ${token.id} in ${collection} at ${price} ${coin ?? 'native'} ${status}`;
    }
    case 3:
      // Every active listing repriced at once: a many-row statement.
      await sql`UPDATE listings SET price = price + ${Math.floor(next() * 20) - 10}
                 WHERE status = 'active' AND price > 20`.execute(db);
      return 'repriced';
    case 4: {
      // A sale's buyer filled in on closed listings: no floor moves.
      await sql`UPDATE listings SET buyer = 'w2' WHERE status <> 'active'`.execute(db);
      return 'buyers filled in';
    }
    case 5:
    case 6: {
      // An attribute given or changed (the crawler's upsert).
      const trait = pick(TRAITS);
      const value = pick(VALUES);
      await sql`INSERT INTO token_attributes (token_data_id, trait_type, collection_id, value, source)
                VALUES (${token.id}, ${trait}, ${token.collection}, ${value}, 'document')
                ON CONFLICT (token_data_id, trait_type) DO UPDATE SET value = excluded.value`.execute(db);
      return `${token.id} ${trait} = ${value}`;
    }
    case 7:
      await sql`DELETE FROM token_attributes WHERE token_data_id = ${token.id} AND trait_type = ${pick(TRAITS)}`.execute(
        db,
      );
      return `${token.id} lost a trait`;
    case 8: {
      const burned = next() < 0.6;
      await sql`UPDATE tokens SET is_burned = ${burned}, last_transaction_version = ${version}
                 WHERE token_data_id = ${token.id}`.execute(db);
      return `${token.id} burned = ${burned}`;
    }
    case 9: {
      // A token's row moved to the other collection and back (its listings and attributes stay).
      const other = token.collection === 'A' ? 'B' : 'A';
      const where = next() < 0.5 ? other : token.collection;
      await sql`UPDATE tokens SET collection_id = ${where} WHERE token_data_id = ${token.id}`.execute(db);
      return `${token.id} in ${where}`;
    }
    case 10:
      // A write to tokens that moves no floor: the crawler's name.
      await sql`UPDATE tokens SET token_name = token_name || '.' WHERE collection_id = ${token.collection}`.execute(
        db,
      );
      return `${token.collection} renamed`;
    default:
      // A token's row removed and stored again (unburned, of its own collection).
      await sql`DELETE FROM tokens WHERE token_data_id = ${token.id}`.execute(db);
      if (next() < 0.7) {
        await sql`INSERT INTO tokens (token_data_id, token_standard, collection_id, token_name, last_transaction_version)
                  VALUES (${token.id}, 'v2', ${token.collection}, ${token.id}, ${version})`.execute(db);
        return `${token.id} stored again`;
      }
      return `${token.id} removed`;
  }
}

describe('kept trait value floors', () => {
  it('agree with the per-request floors after every write of a random walk', async () => {
    await sql`INSERT INTO tokens (token_data_id, token_standard, collection_id, token_name, last_transaction_version)
              SELECT x.id, 'v2', x.collection, x.id, 1
                FROM unnest(${TOKENS.map((k) => k.id)}::text[], ${TOKENS.map((k) => k.collection)}::text[])
                  AS x(id, collection)`.execute(db);
    const next = seededRandom(11);
    let largest = 0;
    for (let step = 0; step < 400; step++) {
      const what = await randomWrite(next, step);
      const floors = await kept();
      expect(floors, `after step ${step}: ${what}`).toEqual(await recounted());
      largest = Math.max(largest, Object.keys(floors).length);
    }
    // The walk reached values with floors in both coins, not only empty tables.
    expect(largest).toBeGreaterThan(6);
  });

  it("move one collection's counter for a floor that moved in it, and none for a listing above the floor", async () => {
    await sql`TRUNCATE listings`.execute(db);
    await sql`DELETE FROM token_attributes WHERE trait_type <> 'fur'`.execute(db);
    await sql`INSERT INTO tokens (token_data_id, token_standard, collection_id, token_name, last_transaction_version)
              SELECT x.id, 'v2', x.collection, x.id, 1
                FROM unnest(${TOKENS.map((k) => k.id)}::text[], ${TOKENS.map((k) => k.collection)}::text[])
                  AS x(id, collection)
              ON CONFLICT (token_data_id) DO UPDATE SET is_burned = false, collection_id = excluded.collection_id`.execute(
      db,
    );
    await sql`INSERT INTO token_attributes (token_data_id, trait_type, collection_id, value, source)
              SELECT x.id, 'fur', x.collection, 'red', 'document'
                FROM unnest(${TOKENS.map((k) => k.id)}::text[], ${TOKENS.map((k) => k.collection)}::text[])
                  AS x(id, collection)
              ON CONFLICT (token_data_id, trait_type) DO UPDATE SET value = 'red'`.execute(db);
    await sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, collection_id,
                seller, price, status, last_transaction_version)
              VALUES ('m', 'f1', '0xm', 't0', 'A', 'w1', 50, 'active', 7000)`.execute(db);
    const before = {
      A: await scopeVersion(db, 'trait_value_floors', 'A'),
      B: await scopeVersion(db, 'trait_value_floors', 'B'),
    };
    // A listing above the floor: no floor moves, no counter either.
    await sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, collection_id,
                seller, price, status, last_transaction_version)
              VALUES ('m', 'f2', '0xm', 't2', 'A', 'w1', 80, 'active', 7001)`.execute(db);
    expect(await scopeVersion(db, 'trait_value_floors', 'A')).toBe(before.A);
    // The floor listing sold: the floor is the next one, A's counter moves and B's does not.
    await sql`UPDATE listings SET status = 'sold', buyer = 'w2' WHERE listing_id = 'f1'`.execute(db);
    expect((await kept())['A fur=red -']).toBe('80');
    expect(await scopeVersion(db, 'trait_value_floors', 'A')).not.toBe(before.A);
    expect(await scopeVersion(db, 'trait_value_floors', 'B')).toBe(before.B);
    expect(await kept()).toEqual(await recounted());
  });

  it("hold when the crawler's attribute and the indexer's listing recount one value at once", async () => {
    await sql`TRUNCATE listings`.execute(db);
    await sql`DELETE FROM token_attributes`.execute(db);
    await sql`INSERT INTO token_attributes (token_data_id, trait_type, collection_id, value, source)
              VALUES ('t2', 'fur', 'A', 'red', 'document'), ('t4', 'fur', 'A', 'red', 'document')`.execute(
      db,
    );
    await sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, collection_id,
                seller, price, status, last_transaction_version)
              VALUES ('m', 'c0', '0xm', 't0', 'A', 'w1', 10, 'active', 9000),
                     ('m', 'c4', '0xm', 't4', 'A', 'w1', 30, 'active', 9000)`.execute(db);
    expect((await kept())['A fur=red -']).toBe('30');
    const crawler = new pg.Client({ connectionString: t.url });
    const indexer = new pg.Client({ connectionString: t.url });
    await crawler.connect();
    await indexer.connect();
    try {
      // The crawler gives t0 (listed at 10) the value, and has not committed.
      await crawler.query('BEGIN');
      await crawler.query(`INSERT INTO token_attributes (token_data_id, trait_type, collection_id, value, source)
                           VALUES ('t0', 'fur', 'A', 'red', 'document')`);
      // Meanwhile the indexer lists t2 (the value already) at 50: its recount cannot see t0's row.
      await indexer.query('BEGIN');
      const listing =
        indexer.query(`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id,
                                       collection_id, seller, price, status, last_transaction_version)
                                     VALUES ('m', 'c2', '0xm', 't2', 'A', 'w1', 50, 'active', 9001)`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await crawler.query('COMMIT');
      await listing;
      await indexer.query('COMMIT');
    } finally {
      await crawler.end();
      await indexer.end();
    }
    expect((await kept())['A fur=red -']).toBe('10');
    expect(await kept()).toEqual(await recounted());
  });

  it('are recounted when a table they are counted from is truncated, and by the rebuild', async () => {
    await sql`INSERT INTO token_attributes (token_data_id, trait_type, collection_id, value, source)
              VALUES ('t1', 'fur', 'B', 'red', 'document') ON CONFLICT DO NOTHING`.execute(db);
    // Rows the triggers never saw (written with the triggers off, as a bulk restore would).
    await sql`ALTER TABLE listings DISABLE TRIGGER USER`.execute(db);
    await sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, collection_id,
                seller, price, status, last_transaction_version)
              VALUES ('m', 'f3', '0xm', 't1', 'B', 'w1', 5, 'active', 8000)`.execute(db);
    await sql`UPDATE listings SET status = 'cancelled' WHERE listing_id = 'c0'`.execute(db);
    await sql`ALTER TABLE listings ENABLE TRIGGER USER`.execute(db);
    expect(await kept()).not.toEqual(await recounted());
    await sql`SELECT trait_value_floors_rebuild()`.execute(db);
    expect(await kept()).toEqual(await recounted());
    await sql`TRUNCATE token_attributes`.execute(db);
    expect(await kept()).toEqual({});
    expect(await recounted()).toEqual({});
  });
});
