import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFloorChanges } from '../src/ingest/floor-changes';
import { emptyBatch, type MarketActivityRow } from '../src/ingest/types';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/*
 * The floor changes a batch records, against a plain model of the rule: the floor of a collection
 * is its lowest active listing in the native coin; after each version that touches a collection,
 * a change is recorded when the floor differs from before. The stored listings and the batch's
 * events are generated with what makes the replay's shortcut (it starts from each collection's few
 * cheapest listings) fragile: sweeps that close every cheap listing, price updates of listings
 * the replay did not read, ties, other coins, closed listings, and collections without listings.
 * Each case is run starting from 1, 2, 16 and all stored listings.
 */

const APT = '0x1::aptos_coin::AptosCoin';
const USDC = '0xf::usdc::USDC';
const COLLECTIONS = ['0xc1', '0xc2', '0xc3', '0xc4'];

function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

interface Stored {
  key: string;
  collection: string;
  price: bigint;
  coin: string;
  active: boolean;
}

interface Generated {
  stored: Stored[];
  events: MarketActivityRow[];
}

function generate(seed: number): Generated {
  const r = random(seed);
  const int = (n: number) => Math.floor(r() * n);
  const stored: Stored[] = [];
  let n = 0;
  for (const collection of COLLECTIONS.slice(0, 3)) {
    const count = int(14);
    for (let i = 0; i < count; i++)
      stored.push({
        key: `s${n++}`,
        collection,
        price: BigInt(1 + int(20)),
        coin: r() < 0.85 ? APT : USDC,
        active: r() < 0.8,
      });
  }
  const open = new Map(stored.filter((s) => s.active).map((s) => [s.key, s.collection]));
  const events: MarketActivityRow[] = [];
  for (let version = 101; version <= 160; version++) {
    const count = 1 + int(4);
    for (let i = 0; i < count; i++) {
      const keys = [...open.keys()];
      const roll = r();
      let key: string;
      let collection: string;
      let kind: string;
      if (roll < 0.45 && keys.length > 0) {
        // Close an open listing, the cheapest of its collection half of the time (a sweep).
        key = keys[int(keys.length)] as string;
        collection = open.get(key) as string;
        if (r() < 0.5) {
          const cheapest = stored
            .filter((s) => s.collection === collection && open.has(s.key))
            .sort((a, b) => Number(a.price - b.price))[0];
          if (cheapest) key = cheapest.key;
        }
        kind = r() < 0.5 ? 'fill_listing' : 'cancel_listing';
        open.delete(key);
      } else if (roll < 0.7 && keys.length > 0) {
        key = keys[int(keys.length)] as string; // a price update (a placement of an open key)
        collection = open.get(key) as string;
        kind = 'place_listing';
      } else {
        key = `e${version}-${i}`;
        collection = COLLECTIONS[int(COLLECTIONS.length)] as string;
        kind = 'place_listing';
        open.set(key, collection);
      }
      events.push({
        transaction_version: version,
        event_index: i,
        kind,
        marketplace: 'm',
        contract_address: '0xm',
        raw_event_type: kind,
        token_data_id: `t-${key}`,
        token_standard: 'v2',
        property_version: null,
        collection_id: collection,
        collection_name: null,
        creator_address: null,
        token_name: null,
        price: String(1 + int(20)),
        token_amount: '1',
        coin_type: r() < 0.9 ? APT : USDC,
        seller: '0xseller',
        buyer: null,
        listing_id: key,
        offer_id: null,
        commission: null,
        royalties: null,
        transaction_timestamp: new Date(Date.UTC(2026, 5, 1) + version * 1000).toISOString(),
        seller_funded: false,
      } as MarketActivityRow);
    }
  }
  return { stored, events };
}

/** The plain model: floors per collection before and after each version. */
function expected(g: Generated): string[] {
  const active = new Map<string, Map<string, bigint>>(COLLECTIONS.map((c) => [c, new Map()]));
  for (const s of g.stored) if (s.active && s.coin === APT) active.get(s.collection)?.set(s.key, s.price);
  const floor = (c: string) => {
    let min: bigint | null = null;
    for (const price of active.get(c)?.values() ?? []) if (min === null || price < min) min = price;
    return min === null ? null : String(min);
  };
  const out: string[] = [];
  const versions = [...new Set(g.events.map((e) => e.transaction_version))].sort((a, b) => a - b);
  for (const v of versions) {
    const before = new Map(COLLECTIONS.map((c) => [c, floor(c)]));
    const touched = new Set<string>();
    for (const e of g.events.filter((x) => x.transaction_version === v)) {
      const c = e.collection_id as string;
      touched.add(c);
      if (e.kind === 'place_listing' && e.coin_type === APT)
        active.get(c)?.set(e.listing_id as string, BigInt(e.price));
      else active.get(c)?.delete(e.listing_id as string);
    }
    for (const c of [...touched].sort()) {
      const after = floor(c);
      if (after !== before.get(c)) out.push(`${v} ${c} ${before.get(c)} -> ${after}`);
    }
  }
  return out;
}

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(async () => {
  await t?.drop();
});

async function recorded(g: Generated, lowest: number): Promise<string[]> {
  let rows: {
    transaction_version: string;
    collection_id: string;
    floor: string | null;
    previous: string | null;
  }[] = [];
  await t.db
    .transaction()
    .execute(async (trx) => {
      for (const s of g.stored)
        await sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, collection_id, price,
                    status, last_transaction_version, coin_type, seller)
                  VALUES ('m', ${s.key}, '0xm', ${`t-${s.key}`}, ${s.collection}, ${String(s.price)},
                          ${s.active ? 'active' : 'sold'}, 50, ${s.coin}, '0xseller')`.execute(trx);
      const batch = { ...emptyBatch('floor-test', 160), marketActivities: g.events };
      await writeFloorChanges(trx, batch, lowest);
      rows = (
        await sql<(typeof rows)[number]>`
          SELECT transaction_version::text, collection_id, floor_price::text AS floor,
                 previous_floor_price::text AS previous
          FROM collection_floor_changes ORDER BY transaction_version, collection_id`.execute(trx)
      ).rows;
      throw new Rollback();
    })
    .catch((e: unknown) => {
      if (!(e instanceof Rollback)) throw e;
    });
  return rows.map((r) => `${r.transaction_version} ${r.collection_id} ${r.previous} -> ${r.floor}`);
}

class Rollback extends Error {}

describe('floor changes recorded by a batch', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'generated case %i: every change of the plain model, whatever the listings read',
    async (seed) => {
      const g = generate(seed);
      const want = expected(g);
      expect(want.length).toBeGreaterThan(5);
      for (const lowest of [1, 2, 16, 1_000_000])
        expect([lowest, await recorded(g, lowest)]).toEqual([lowest, want]);
    },
  );
});
