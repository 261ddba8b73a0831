import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src';
import { createTestDatabase, scopeVersion, seededRandom, type TestDatabase } from '../src/testing';

/*
 * collection_holdings holds each holder's count of a collection's tokens (migration
 * 2026-12-17T1000), kept by statement triggers on token_ownerships, listings and tokens. Checked
 * after every write of a seeded random walk (ownerships coming, going and changing amount or
 * collection, a v1 token's later property versions, listings opened, closed and escrowed, tokens
 * burned, unburned and removed, TRUNCATE) against the count collection-stats ran per request before
 * (written out here as it was, over every collection at once).
 */
let t: TestDatabase;
let db: Db;
beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
});
afterAll(() => t?.drop());

type Counts = Record<string, number>;

const asCounts = (rows: { collection_id: string; holder: string; held: number }[]): Counts =>
  Object.fromEntries(rows.map((r) => [`${r.collection_id} ${r.holder}`, r.held]));

/** What the triggers kept. */
const kept = async (): Promise<Counts> =>
  asCounts(
    (
      await sql<{ collection_id: string; holder: string; held: number }>`
        SELECT collection_id, holder, held FROM collection_holdings ORDER BY 1, 2`.execute(db)
    ).rows,
  );

/**
 * The count collection-stats grouped per request before the holdings were kept: each positive
 * ownership once per token (the lowest positive property version stands for the others), each
 * active listing's seller for a token the seller holds no positive ownership of, burned tokens out.
 */
const recounted = async (): Promise<Counts> =>
  asCounts(
    (
      await sql<{ collection_id: string; holder: string; held: number }>`
        SELECT h.collection_id, h.holder, count(*)::int AS held FROM (
          SELECT o.collection_id, o.owner_address AS holder, o.token_data_id FROM token_ownerships o
           WHERE o.collection_id IS NOT NULL AND o.amount > 0
             AND (o.property_version = 0 OR NOT EXISTS (
                   SELECT 1 FROM token_ownerships p
                    WHERE p.collection_id = o.collection_id AND p.owner_address = o.owner_address
                      AND p.token_data_id = o.token_data_id AND p.amount > 0 AND p.property_version < o.property_version))
          UNION ALL
          SELECT DISTINCT l.collection_id, l.seller, l.token_data_id FROM listings l
           WHERE l.collection_id IS NOT NULL AND l.status = 'active' AND l.seller IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM token_ownerships o
                              WHERE o.collection_id = l.collection_id AND o.owner_address = l.seller
                                AND o.token_data_id = l.token_data_id AND o.amount > 0)
        ) h
        WHERE NOT EXISTS (SELECT 1 FROM tokens t WHERE t.token_data_id = h.token_data_id AND t.is_burned
                            AND t.collection_id = h.collection_id)
        GROUP BY 1, 2 ORDER BY 1, 2`.execute(db)
    ).rows,
  );

const COLLECTIONS = ['A', 'B', 'C'];
const WALLETS = ['w1', 'w2', 'w3', 'w4', 'w5'];
/** Twelve tokens, four per collection. */
const TOKENS = Array.from({ length: 12 }, (_, i) => ({
  id: `t${i}`,
  collection: COLLECTIONS[i % 3] as string,
}));

/** One random write to one of the three tables, as a statement of its own. */
async function randomWrite(next: () => number, step: number): Promise<string> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const token = pick(TOKENS);
  const wallet = pick(WALLETS);
  const kind = Math.floor(next() * 10);
  const version = 1000 + step;
  switch (kind) {
    case 0:
    case 1: {
      // An ownership arrives or changes amount, of property version 0 or 1 (a v1 token's later one).
      const amount = pick([0, 1, 1, 2]);
      const pv = pick([0, 0, 1]);
      // Now and then stored without its collection, as an ownership of a token not yet known is.
      const collection = next() < 0.15 ? null : token.collection;
      await sql`INSERT INTO token_ownerships (token_data_id, property_version, owner_address, collection_id,
                  token_standard, amount, last_transaction_version)
                VALUES (${token.id}, ${pv}, ${wallet}, ${collection}, 'v1', ${amount}, ${version})
                ON CONFLICT (token_data_id, property_version, owner_address) DO UPDATE
                  SET amount = excluded.amount, collection_id = excluded.collection_id,
                      last_transaction_version = excluded.last_transaction_version`.execute(db);
      return `ownership ${token.id}/${pv} ${wallet} = ${amount} in ${collection}`;
    }
    case 2: {
      // A transfer: every holder's rows of the token to zero, then one to the new owner.
      await sql`UPDATE token_ownerships SET amount = 0, last_transaction_version = ${version}
                 WHERE token_data_id = ${token.id}`.execute(db);
      await sql`INSERT INTO token_ownerships (token_data_id, property_version, owner_address, collection_id,
                  token_standard, amount, last_transaction_version)
                VALUES (${token.id}, 0, ${wallet}, ${token.collection}, 'v1', 1, ${version})
                ON CONFLICT (token_data_id, property_version, owner_address) DO UPDATE
                  SET amount = 1, collection_id = excluded.collection_id`.execute(db);
      return `transfer ${token.id} to ${wallet}`;
    }
    case 3:
      await sql`DELETE FROM token_ownerships WHERE token_data_id = ${token.id} AND owner_address = ${wallet}`.execute(
        db,
      );
      return `ownership ${token.id} ${wallet} deleted`;
    case 4:
    case 5: {
      // A listing opened (escrowed or not), or an existing one's status or seller changed.
      const id = `l${Math.floor(next() * 8)}`;
      const status = pick(['active', 'active', 'sold', 'cancelled']);
      await sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, collection_id,
                  seller, price, status, last_transaction_version)
                VALUES ('m', ${id}, '0xm', ${token.id}, ${token.collection}, ${wallet}, 100, ${status}, ${version})
                ON CONFLICT (marketplace, listing_id) DO UPDATE
                  SET status = excluded.status, seller = excluded.seller, token_data_id = excluded.token_data_id,
                      collection_id = excluded.collection_id, last_transaction_version = excluded.last_transaction_version`.execute(
        db,
      );
      return `listing ${id} of ${token.id} by ${wallet} ${status}`;
    }
    case 6:
      // A price change of every active listing: nothing a holding counts.
      await sql`UPDATE listings SET price = price + 1 WHERE status = 'active'`.execute(db);
      return 'repriced';
    case 7: {
      const burned = next() < 0.7;
      await sql`UPDATE tokens SET is_burned = ${burned}, last_transaction_version = ${version}
                 WHERE token_data_id = ${token.id}`.execute(db);
      return `${token.id} burned = ${burned}`;
    }
    case 8:
      // A write to tokens that is not a burn: the crawler's name, say.
      await sql`UPDATE tokens SET token_name = token_name || '.' WHERE collection_id = ${token.collection}`.execute(
        db,
      );
      return `${token.collection} renamed`;
    default:
      // A burned token's row removed and stored again (unburned).
      await sql`DELETE FROM tokens WHERE token_data_id = ${token.id} AND is_burned`.execute(db);
      await sql`INSERT INTO tokens (token_data_id, token_standard, collection_id, token_name, last_transaction_version)
                VALUES (${token.id}, 'v1', ${token.collection}, ${token.id}, ${version})
                ON CONFLICT (token_data_id) DO NOTHING`.execute(db);
      return `${token.id} stored again`;
  }
}

describe('kept collection holdings', () => {
  it('agree with the per-request count after every write of a random walk', async () => {
    await sql`INSERT INTO tokens (token_data_id, token_standard, collection_id, token_name, last_transaction_version)
              SELECT x.id, 'v1', x.collection, x.id, 1
                FROM unnest(${TOKENS.map((k) => k.id)}::text[], ${TOKENS.map((k) => k.collection)}::text[])
                  AS x(id, collection)`.execute(db);
    const next = seededRandom(7);
    for (let step = 0; step < 300; step++) {
      const what = await randomWrite(next, step);
      expect(await kept(), `after step ${step}: ${what}`).toEqual(await recounted());
    }
    // The walk reached every kind of holding: some escrowed, some of several tokens.
    expect(Object.keys(await kept()).length).toBeGreaterThan(5);
    expect(Math.max(...Object.values(await kept()))).toBeGreaterThan(1);
  });

  it('count every row of a statement that writes many at once', async () => {
    await sql`INSERT INTO token_ownerships (token_data_id, property_version, owner_address, collection_id,
                token_standard, amount, last_transaction_version)
              SELECT x.id, 0, 'w' || g, x.collection, 'v1', 1, 5000
                FROM unnest(${TOKENS.map((k) => k.id)}::text[], ${TOKENS.map((k) => k.collection)}::text[])
                  AS x(id, collection), generate_series(6, 9) g
              ON CONFLICT DO NOTHING`.execute(db);
    expect(await kept()).toEqual(await recounted());
    await sql`UPDATE tokens SET is_burned = true WHERE token_data_id IN ('t0', 't4', 't8')`.execute(db);
    expect(await kept()).toEqual(await recounted());
    await sql`DELETE FROM listings WHERE seller IN ('w1', 'w2')`.execute(db);
    expect(await kept()).toEqual(await recounted());
  });

  it("move one collection's counter for a transfer in it, and none for a write that holds nothing new", async () => {
    await sql`UPDATE tokens SET is_burned = false`.execute(db);
    await sql`INSERT INTO token_ownerships (token_data_id, property_version, owner_address, collection_id,
                token_standard, amount, last_transaction_version)
              VALUES ('t1', 0, 'w9', 'B', 'v1', 1, 6000)
              ON CONFLICT (token_data_id, property_version, owner_address) DO UPDATE SET amount = 1`.execute(
      db,
    );
    const before = {
      A: await scopeVersion(db, 'collection_holdings', 'A'),
      B: await scopeVersion(db, 'collection_holdings', 'B'),
    };
    // t1 (B) from w9 to a new wallet.
    await sql`UPDATE token_ownerships SET amount = 0 WHERE token_data_id = 't1' AND owner_address = 'w9'`.execute(
      db,
    );
    await sql`INSERT INTO token_ownerships (token_data_id, property_version, owner_address, collection_id,
                token_standard, amount, last_transaction_version)
              VALUES ('t1', 0, 'w10', 'B', 'v1', 1, 6001)`.execute(db);
    expect(await kept()).toEqual(await recounted());
    expect(await scopeVersion(db, 'collection_holdings', 'A')).toBe(before.A);
    expect(await scopeVersion(db, 'collection_holdings', 'B')).toBeGreaterThan(before.B);
    // A balance's version moving, a rename and a listing's price: no holding changes, no counter moves.
    const after = await scopeVersion(db, 'collection_holdings', 'B');
    await sql`UPDATE token_ownerships SET last_transaction_version = 7000 WHERE collection_id = 'B'`.execute(
      db,
    );
    await sql`UPDATE tokens SET token_name = token_name || '!' WHERE collection_id = 'B'`.execute(db);
    await sql`UPDATE listings SET price = price + 1 WHERE collection_id = 'B'`.execute(db);
    expect(await scopeVersion(db, 'collection_holdings', 'B')).toBe(after);
  });

  it('are recounted when a table they are counted from is truncated, and by the rebuild', async () => {
    await sql`TRUNCATE listings`.execute(db);
    expect(await kept()).toEqual(await recounted());
    // Rows the triggers never saw (written with the triggers off, as a bulk restore would).
    await sql`ALTER TABLE token_ownerships DISABLE TRIGGER USER`.execute(db);
    await sql`INSERT INTO token_ownerships (token_data_id, property_version, owner_address, collection_id,
                token_standard, amount, last_transaction_version)
              VALUES ('t2', 0, 'w11', 'C', 'v1', 1, 8000)`.execute(db);
    await sql`ALTER TABLE token_ownerships ENABLE TRIGGER USER`.execute(db);
    expect(await kept()).not.toEqual(await recounted());
    await sql`SELECT collection_holdings_rebuild()`.execute(db);
    expect(await kept()).toEqual(await recounted());
    await sql`TRUNCATE token_ownerships`.execute(db);
    expect(await kept()).toEqual(await recounted());
  });
});
