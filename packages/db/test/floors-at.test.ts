import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildFloorsAt } from '../src/queries/worker/floors-at';
import { createTestDatabase, type TestDatabase } from '../src/testing';
import { loadExactFloorsAt, loadFloorsAt } from '../src/worker';

/*
 * The floor at a past instant (a ranking window's start) is read from the floor changes the
 * indexer records, except where that record is not the floor: a listing still open when its token
 * was burned counts in the recorded floor, not in the floor (a burned token can stay listed on
 * chain). Two collections with the same listings and recorded changes; in C the cheaper listing's
 * token is burned later, in D it is not. Before a collection's first recorded change its floor is
 * none only when no listing of it is older (E has one the record never saw). The rows are what the
 * indexer writes for these events.
 * (The devnet-facts test checks the recorded path against the rebuild along a whole chain.)
 */

const T0 = Date.parse('2026-06-01T00:00:00Z');
const HOUR = 3_600_000;
const at = (hours: number) => new Date(T0 + hours * HOUR);
const APT = '0x1::aptos_coin::AptosCoin';

let t: TestDatabase;

async function collectionWithTwoListings(id: string, version: number, burnCheaper: boolean) {
  const { db } = t;
  await sql`INSERT INTO collections (collection_id, token_standard, creator_address, collection_name, created_at,
                                     created_version, last_transaction_version)
            VALUES (${id}, 'v2', '0xcreator', ${id}, ${at(0)}, ${version}, ${version})`.execute(db);
  const listings = [
    { token: `${id}:t1`, price: '100', v: version + 10, time: at(1) },
    { token: `${id}:t2`, price: '50', v: version + 20, time: at(2) },
  ];
  for (const [i, l] of listings.entries()) {
    const burned = burnCheaper && i === 1;
    await sql`INSERT INTO tokens (token_data_id, token_standard, collection_id, token_name, is_burned, last_transaction_version)
              VALUES (${l.token}, 'v2', ${id}, ${`${id} #${i}`}, ${burned}, ${l.v})`.execute(db);
    await sql`INSERT INTO marketplace_activities (transaction_version, event_index, kind, marketplace, contract_address,
                raw_event_type, price, token_amount, transaction_timestamp, token_data_id, collection_id, listing_id,
                seller, coin_type)
              VALUES (${l.v}, 0, 'place_listing', 'm', '0xm', 'ListEvent', ${l.price}, 1, ${l.time}, ${l.token}, ${id},
                      ${`${id}:l${i}`}, '0xseller', ${APT})`.execute(db);
    await sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, collection_id, price,
                status, last_transaction_version, listed_version, listed_at, seller, coin_type)
              VALUES ('m', ${`${id}:l${i}`}, '0xm', ${l.token}, ${id}, ${l.price}, 'active', ${l.v}, ${l.v}, ${l.time},
                      '0xseller', ${APT})`.execute(db);
  }
  // What the indexer's floor replay records for these placements: 100, then 50.
  await sql`INSERT INTO collection_floor_changes (transaction_version, event_index, collection_id, floor_price,
              previous_floor_price, transaction_timestamp)
            VALUES (${version + 10}, 1000000, ${id}, 100, NULL, ${at(1)}),
                   (${version + 20}, 1000000, ${id}, 50, 100, ${at(2)})`.execute(db);
  if (burnCheaper)
    await sql`INSERT INTO token_activities (transaction_version, event_index, kind, event_type, token_data_id,
                token_standard, amount, transaction_timestamp, collection_id)
              VALUES (${version + 30}, 0, 'burn', '0x4::collection::Burn', ${`${id}:t2`}, 'v2', 1, ${at(3)}, ${id})`.execute(
      db,
    );
}

beforeAll(async () => {
  t = await createTestDatabase();
  await collectionWithTwoListings('0xc', 100, true);
  await collectionWithTwoListings('0xd', 200, false);
  // E: D's listings and changes, plus a listing of 70 open from hour 0.2 to 0.6 that the floor
  // changes never recorded (they began after it, as in a database indexed before the table).
  await collectionWithTwoListings('0xe', 300, false);
  await sql`INSERT INTO marketplace_activities (transaction_version, event_index, kind, marketplace, contract_address,
              raw_event_type, price, token_amount, transaction_timestamp, token_data_id, collection_id, listing_id,
              seller, coin_type)
            VALUES (301, 0, 'place_listing', 'm', '0xm', 'ListEvent', 70, 1, ${at(0.2)}, '0xe:t0', '0xe', '0xe:old',
                    '0xseller', ${APT}),
                   (302, 0, 'cancel_listing', 'm', '0xm', 'DelistEvent', 70, 1, ${at(0.6)}, '0xe:t0', '0xe', '0xe:old',
                    '0xseller', ${APT})`.execute(t.db);
  await sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, collection_id, price,
              status, last_transaction_version, listed_version, listed_at, closed_at, seller, coin_type)
            VALUES ('m', '0xe:old', '0xm', '0xe:t0', '0xe', 70, 'cancelled', 302, 301, ${at(0.2)}, ${at(0.6)},
                    '0xseller', ${APT})`.execute(t.db);
});

afterAll(async () => {
  await t?.drop();
});

describe('the floor at a past instant', () => {
  it('before the first recorded change: none, unless an older listing says otherwise', async () => {
    const floors = await loadFloorsAt(t.db, ['0xd', '0xe'], at(0.5));
    expect([floors.get('0xd'), floors.get('0xe')]).toEqual([null, '70']);
    const exact = await loadExactFloorsAt(t.db, ['0xd', '0xe'], at(0.5));
    expect([exact.get('0xd'), exact.get('0xe')]).toEqual([null, '70']);
    const rebuilt = await rebuildFloorsAt(t.db, ['0xd', '0xe'], at(0.5));
    expect([rebuilt.get('0xd'), rebuilt.get('0xe')]).toEqual([null, '70']);
  });

  it.each([
    [0.5, null, null],
    [1, null, null], // an event at the instant itself is not before it
    [1.5, '100', '100'],
    [2.5, '50', '50'],
    [4, '100', '50'], // C's 50 is a burned token's listing from hour 3 on
  ])('at hour %s: C %s, D %s, as the rebuild from listing events', async (hours, c, d) => {
    const floors = await loadFloorsAt(t.db, ['0xc', '0xd'], at(hours));
    expect([floors.get('0xc'), floors.get('0xd')]).toEqual([c, d]);
    // A window's exact start (collection-stats): the same, from the record or the rebuild.
    const exact = await loadExactFloorsAt(t.db, ['0xc', '0xd'], at(hours));
    expect([exact.get('0xc'), exact.get('0xd')]).toEqual([c, d]);
    const rebuilt = await rebuildFloorsAt(t.db, ['0xc', '0xd'], at(hours));
    expect([rebuilt.get('0xc'), rebuilt.get('0xd')]).toEqual([c, d]);
  });
});
