import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traitKey, traitLastSales } from '../src/queries/api/analytics-traders';
import { createTestDatabase, insertCollection, type TestDatabase } from '../src/testing';

/*
 * The last sale of each trait value is found from the newest sales first, and for the values not
 * among them, from the values' own tokens (traitLastSales). Checked against the plain join it
 * replaced, written out here, at every size of the newest-sales step: from one sale (almost every
 * value comes from its tokens) to more than the collection has (none does). The chain has what
 * tells the steps apart: values whose last sale is old, values never sold, a burned token's sale,
 * wash-flagged and non-native sales, two sales in one transaction, and another collection's sales
 * of tokens with the same values.
 */
const C = '0xc1';
const OTHER = '0xc2';
const traits: [string, string[]][] = [
  ['fur', ['black', 'white', 'gold', 'none']],
  ['eyes', ['blue', 'red', 'laser']],
  ['hat', ['cap', 'crown']],
];

describe('the last sale of each trait value', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    for (const id of [C, OTHER]) await insertCollection(t.db, id);
    // 24 tokens per collection; token k has the k-th combination, so rare values have few tokens.
    for (const id of [C, OTHER]) {
      for (let k = 0; k < 24; k++) {
        const token = `${id}t${k}`;
        await sql`INSERT INTO tokens (token_data_id, token_standard, collection_id, token_name, is_burned, last_transaction_version)
                  VALUES (${token}, 'v2', ${id}, ${`#${k}`}, ${k === 5}, 1)`.execute(t.db);
        const fur = k < 12 ? 'black' : k < 20 ? 'white' : k < 23 ? 'gold' : 'none';
        const eyes = k % 3 === 0 ? 'blue' : k % 7 === 0 ? 'laser' : 'red';
        const hat = k % 11 === 0 ? 'crown' : 'cap';
        for (const [type, value] of [
          ['fur', fur],
          ['eyes', eyes],
          ['hat', hat],
        ] as const) {
          await sql`INSERT INTO token_attributes (token_data_id, trait_type, collection_id, value)
                    VALUES (${token}, ${type}, ${id}, ${value})`.execute(t.db);
        }
      }
    }
    // Sales: token (7k + 3) mod 24 at version 10 + 2k; none of 'gold' (tokens 20-22) after the
    // first few; 'none' (token 23) never sold in C; every fifth flagged, every seventh in another coin.
    let version = 10;
    for (let k = 0; k < 60; k++) {
      const token = (7 * k + 3) % 24;
      if (token === 23 || (token >= 20 && token <= 22 && k > 8)) continue;
      version += 2;
      for (const [i, id] of [C, OTHER].entries()) {
        await sql`INSERT INTO marketplace_activities (transaction_version, event_index, kind, marketplace,
                    contract_address, raw_event_type, price, token_amount, transaction_timestamp, collection_id,
                    token_data_id, coin_type, wash_flags)
                  VALUES (${version}, ${i}, 'fill_listing', 'm', '0xm', 'e', ${1000 + k * 10 + i}, 1,
                          ${new Date(Date.UTC(2026, 0, 1, 0, k))}, ${id}, ${`${id}t${token}`},
                          ${k % 7 === 6 ? '0xusd::coin::USD' : null}, ${k % 5 === 4 ? ['self_trade'] : []})`.execute(
          t.db,
        );
      }
    }
    // A second sale in the last sale's transaction, at a later event: it is the newer one.
    await sql`INSERT INTO marketplace_activities (transaction_version, event_index, kind, marketplace,
                contract_address, raw_event_type, price, token_amount, transaction_timestamp, collection_id,
                token_data_id, wash_flags)
              VALUES (${version}, 5, 'fill_token_offer', 'm', '0xm', 'e', 7777, 1, now(), ${C}, ${`${C}t0`}, '{}')`.execute(
      t.db,
    );
  });
  afterAll(() => t.drop());

  /** The join the route used before: every sale with its token's attributes, newest per value. */
  async function byJoin(includeFlagged: boolean): Promise<Map<string, { price: string; ts: Date }>> {
    const { rows } = await sql<{ trait_type: string; value: string; price: string; ts: Date }>`
      SELECT DISTINCT ON (a.trait_type, a.value) a.trait_type, a.value, m.price::text AS price,
             m.transaction_timestamp AS ts
        FROM marketplace_activities m JOIN token_attributes a ON a.token_data_id = m.token_data_id
       WHERE m.collection_id = ${C} AND m.kind IN ('fill_listing', 'fill_token_offer', 'fill_collection_offer')
         AND (m.coin_type IS NULL OR m.coin_type = '0x1::aptos_coin::AptosCoin')
         AND (${includeFlagged} OR m.wash_flags = '{}')
       ORDER BY a.trait_type, a.value, m.transaction_version DESC, m.event_index DESC`.execute(t.db);
    return new Map(rows.map((r) => [traitKey(r.trait_type, r.value), { price: r.price, ts: r.ts }]));
  }

  it('gives the join’s answer for every size of the newest-sales step', async () => {
    const live = traits.flatMap(([type, values]) => values.map((v) => traitKey(type, v)));
    for (const includeFlagged of [false, true]) {
      const expected = await byJoin(includeFlagged);
      // Not vacuous: some values sold long ago, and one never did.
      expect(expected.size).toBeGreaterThan(5);
      expect(expected.has(traitKey('fur', 'none'))).toBe(false);
      for (const recent of [1, 2, 3, 5, 8, 20, 1000]) {
        const found = await traitLastSales(t.db, C, includeFlagged, recent);
        const want = new Map([...expected].filter(([key]) => live.includes(key)));
        expect(found, `recent ${recent}, includeFlagged ${includeFlagged}`).toEqual(want);
      }
    }
  });
});
