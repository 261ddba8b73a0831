import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src';
import { createTestDatabase, seededRandom, type TestDatabase } from '../src/testing';

/*
 * active_listing_grams holds, per one- or two-character search text, the number of active listings
 * whose token name or collection's name contains it, case-insensitively (migration 2026-12-20T1000),
 * kept by statement triggers on active_listings and collections. Checked after every write of a
 * seeded random walk (listings opened, closed, renamed, moved between collections; collections
 * inserted, renamed, deleted) against the count total-listing-cards ran before for such a text:
 * ILIKE over every active listing's name and its collection's, for every text of the alphabet the
 * names are made of, and a few that no name holds.
 */
let t: TestDatabase;
let db: Db;
beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
});
afterAll(() => t?.drop());

/** Names of mixed case, digits, spaces, punctuation and a letter Postgres lower-cases to two characters. */
const NAMES = ['Ape #1', 'ape 12', 'Bored Ape', 'CAT-9', 'Dog', 'İnci', 'ß7', 'x', null];
const COLLECTION_NAMES = ['Apes', 'Cats Club', 'Zebra 2', 'İstanbul', 'q'];
const COLLECTIONS = ['c1', 'c2', 'c3'];
/** Every one-letter and one-digit text, the two-character ones the names hold, and some none does. */
const TEXTS = [
  ...'abcdefghijklmnopqrstuvwxyz0123456789'.split(''),
  ...[
    'ap',
    'AP',
    'pe',
    'e ',
    'e1',
    '12',
    'ca',
    'at',
    't-',
    '9',
    'in',
    'nc',
    'st',
    'ub',
    'ze',
    'a2',
    'zz',
    '77',
    'ß7',
    'i̇',
  ],
];

/** What the triggers kept, for each text (0 when it has no row). */
async function kept(texts: readonly string[]): Promise<number[]> {
  const { rows } = await sql<{ total: number }>`
    SELECT coalesce(g.listings, 0)::int AS total
      FROM unnest(${texts}::text[]) WITH ORDINALITY AS x(text, i)
      LEFT JOIN active_listing_grams g ON g.gram = lower(x.text)
     ORDER BY x.i`.execute(db);
  return rows.map((r) => r.total);
}

/** The count as total-listing-cards ran it per request for such a text. */
async function counted(texts: readonly string[]): Promise<number[]> {
  const { rows } = await sql<{ total: number }>`
    SELECT (SELECT count(*) FROM active_listings l
             WHERE l.token_name ILIKE '%' || x.text || '%'
                OR l.collection_id = ANY(ARRAY(SELECT collection_id FROM collections
                                                WHERE collection_name ILIKE '%' || x.text || '%')))::int AS total
      FROM unnest(${texts}::text[]) WITH ORDINALITY AS x(text, i)
     ORDER BY x.i`.execute(db);
  return rows.map((r) => r.total);
}

/** The texts that are one or two letters or digits (what the kept counts answer), as the route tests them. */
const COUNTED = TEXTS.filter((text) => /^[A-Za-z0-9]{1,2}$/.test(text));

async function randomWrite(next: () => number, step: number): Promise<string> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const kind = Math.floor(next() * 8);
  const collection = pick(COLLECTIONS);
  switch (kind) {
    case 0:
    case 1:
    case 2: {
      // A listing opened, closed, renamed or moved (an upsert on listings: active_listings follows).
      const id = `l${Math.floor(next() * 12)}`;
      const status = pick(['active', 'active', 'sold']);
      const name = pick(NAMES);
      const of = next() < 0.1 ? null : collection;
      await sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, token_name,
                  collection_id, seller, price, status, last_transaction_version)
                VALUES ('m', ${id}, '0xm', ${`t${id}`}, ${name}, ${of}, 'w1', 10, ${status}, ${1000 + step})
                ON CONFLICT (marketplace, listing_id) DO UPDATE
                  SET status = excluded.status, token_name = excluded.token_name,
                      collection_id = excluded.collection_id,
                      last_transaction_version = excluded.last_transaction_version`.execute(db);
      return `listing ${id} ${JSON.stringify(name)} in ${of} ${status}`;
    }
    case 3:
      // Many listings at once, their price alone: no gram moves.
      await sql`UPDATE listings SET price = price + 1 WHERE status = 'active'`.execute(db);
      return 'repriced';
    case 4:
    case 5: {
      // A collection stored or renamed (the indexer's upsert).
      const name = pick(COLLECTION_NAMES);
      await sql`INSERT INTO collections (collection_id, token_standard, creator_address, collection_name,
                  created_at, created_version, last_transaction_version)
                VALUES (${collection}, 'v2', '0x1', ${name}, now(), 1, ${1000 + step})
                ON CONFLICT (collection_id) DO UPDATE SET collection_name = excluded.collection_name`.execute(
        db,
      );
      return `${collection} named ${name}`;
    }
    case 6:
      // A write to collections that renames nothing (its counts move with the chain).
      await sql`UPDATE collections SET owner_count = owner_count + 1`.execute(db);
      return 'owner counts';
    default:
      await sql`DELETE FROM collections WHERE collection_id = ${collection}`.execute(db);
      return `${collection} removed`;
  }
}

describe('kept short-text listing counts', () => {
  it('agree with the per-request ILIKE count after every write of a random walk', async () => {
    // The texts the kept counts answer are the ones the route sends them (the rest count as before).
    expect(COUNTED.length).toBeGreaterThan(50);
    const next = seededRandom(7);
    let largest = 0;
    for (let step = 0; step < 300; step++) {
      const what = await randomWrite(next, step);
      const counts = await kept(COUNTED);
      expect(counts, `after step ${step}: ${what}`).toEqual(await counted(COUNTED));
      largest = Math.max(largest, ...counts);
    }
    // The walk reached texts counted in several listings, not only empty tables.
    expect(largest).toBeGreaterThan(4);
    // Texts outside the alphabet count nothing, as ILIKE does not match them either.
    expect(await kept(['zz', '77'])).toEqual(await counted(['zz', '77']));
  });

  it('a collection renamed while a listing of it is put in counts the listing under the new name', async () => {
    await sql`TRUNCATE listings, collections`.execute(db);
    await sql`INSERT INTO collections (collection_id, token_standard, creator_address, collection_name,
                created_at, created_version, last_transaction_version)
              VALUES ('r1', 'v2', '0x1', 'Old', now(), 1, 1)`.execute(db);
    // The rename uncommitted on one connection while the indexer's listing lands on another.
    const renamer = new pg.Client({ connectionString: t.url });
    await renamer.connect();
    try {
      await renamer.query('BEGIN');
      await renamer.query(`UPDATE collections SET collection_name = 'New' WHERE collection_id = 'r1'`);
      const listing = sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id,
                            token_name, collection_id, seller, price, status, last_transaction_version)
                          VALUES ('m', 'r', '0xm', 'tr', 'Zz', 'r1', 'w1', 10, 'active', 2)`.execute(db);
      // The listing's trigger waits for the rename's commit (the lock), then reads the new name.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await renamer.query('COMMIT');
      await listing;
    } finally {
      await renamer.end();
    }
    expect(await kept(['n', 'ne', 'o', 'ol'])).toEqual(await counted(['n', 'ne', 'o', 'ol']));
    expect(await kept(['ne', 'ol'])).toEqual([1, 0]);
  });

  it('TRUNCATE of collections and the rebuild count every gram again', async () => {
    await sql`TRUNCATE collections`.execute(db);
    expect(await kept(COUNTED)).toEqual(await counted(COUNTED));
    await sql`INSERT INTO collections (collection_id, token_standard, creator_address, collection_name,
                created_at, created_version, last_transaction_version)
              VALUES ('r1', 'v2', '0x1', 'Again', now(), 1, 1)`.execute(db);
    await sql`DELETE FROM active_listing_grams`.execute(db);
    await sql`SELECT active_listing_grams_rebuild()`.execute(db);
    expect(await kept(COUNTED)).toEqual(await counted(COUNTED));
    expect(await kept(['ag'])).toEqual([1]);
  });
});
