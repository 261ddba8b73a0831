import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenBalances } from '../src/queries/api/tokens';
import { createTestDatabase, insertCollection, type TestDatabase } from '../src/testing';

/*
 * A wallet's balances total is counted apart from its rows (the rows of every page, all the
 * ownership rows less the zero rows the wallet has listed, plus the listings it holds no
 * ownership of): here it must equal the rows the pages list, walked to the end, for each filter,
 * on holdings built to tell the parts apart: positive rows, zero rows, zero rows of listed tokens
 * (at two property versions, and listed twice: one entry per listing), escrowed listings, a listing of a held token, a
 * closed listing, and rows in two collections.
 */
const W = '0xwallet';
const C1 = '0xc1';
const C2 = '0xc2';

describe('a wallet balances total', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    for (const c of [C1, C2]) await insertCollection(t.db, c, { standard: 'v1' });
    const token = (k: number) => `0xt${String(k).padStart(3, '0')}`;
    const own = (k: number, c: string, amount: number, pv = 0) =>
      sql`INSERT INTO token_ownerships (token_data_id, property_version, owner_address, collection_id,
            token_standard, amount, last_transaction_version)
          VALUES (${token(k)}, ${pv}, ${W}, ${c}, 'v1', ${amount}, 1)`.execute(t.db);
    const list = (id: string, k: number, c: string, status = 'active', seller = W) =>
      sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, collection_id,
            price, status, last_transaction_version, seller)
          VALUES ('m', ${id}, '0xm', ${token(k)}, ${c}, 100, ${status}, 1, ${seller})`.execute(t.db);
    for (let k = 0; k < 6; k++) await own(k, k % 2 ? C1 : C2, 1); // held
    for (let k = 10; k < 17; k++) await own(k, k % 2 ? C1 : C2, 0); // sold or sent away
    // Zero rows of tokens the wallet has listed (escrowed): shown once, as the listing.
    await own(20, C1, 0);
    await own(20, C1, 0, 1);
    await list('z1', 20, C1);
    await list('z1b', 20, C1);
    await own(21, C2, 0);
    await list('z2', 21, C2);
    // A zero row of a token someone else listed, and one the wallet listed and cancelled.
    await own(22, C1, 0);
    await list('x1', 22, C1, 'active', '0xother');
    await own(23, C2, 0);
    await list('x2', 23, C2, 'cancelled');
    // Escrowed listings without any ownership row, and a listing of a held token.
    await list('e1', 30, C1);
    await list('e2', 31, C2);
    await list('h1', 1, C1);
  });
  afterAll(() => t.drop());

  it.each([
    { greaterThanZeroBalance: false, collectionIds: undefined },
    { greaterThanZeroBalance: true, collectionIds: undefined },
    { greaterThanZeroBalance: false, collectionIds: [C1] },
    { greaterThanZeroBalance: true, collectionIds: [C2] },
    { greaterThanZeroBalance: false, collectionIds: [C1, C2] },
  ])('%o', async (filter) => {
    const f = { address: W, serviceInfo: false, ...filter };
    const listed: string[] = [];
    let page = 1;
    let total = -1;
    for (;;) {
      const p = await tokenBalances(t.db, f, { page, limit: 3 });
      total = p.pagination.total;
      listed.push(...p.data.map((b) => `${b.tokenId}/${b.propertyVersion}`));
      if (!p.pagination.hasMore) break;
      page++;
    }
    expect(total).toBe(listed.length);
    // Not vacuous: the filters tell the parts apart.
    expect(listed.length).toBeGreaterThan(1);
  });

  it('the zero rows of listed tokens are left to their listing', async () => {
    const p = await tokenBalances(
      t.db,
      { address: W, serviceInfo: false, greaterThanZeroBalance: false },
      {
        page: 1,
        limit: 100,
      },
    );
    // 6 held; 7 + 2 zero rows the wallet has not listed; token 20 once per listing (its two zero
    // rows left out) and 21 once; the escrowed 30 and 31.
    expect(p.pagination.total).toBe(6 + 9 + 2 + 1 + 2);
    const t20 = p.data.filter((b) => b.tokenId === '0xt020');
    expect(t20.map((b) => b.listed)).toEqual([true, true]);
    expect(p.data.filter((b) => b.tokenId === '0xt021').map((b) => b.listed)).toEqual([true]);
  });
});
