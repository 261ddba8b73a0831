import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../src/testing';
import { writeCollectionSnapshots, writeHourlySnapshots, writeInventorySnapshots } from '../src/worker';

/*
 * Who holds what (holdingsSql), through the two statements that read it, each on its own and both
 * from one count (writeHourlySnapshots): the hourly collection snapshot's holder counts and the
 * inventory snapshot's token counts. Checked against a plain
 * reference written from the rule itself: a wallet holds a token when it has a positive balance of
 * it or an active listing of it as seller, and a burned token is held by no one. The rows are
 * generated with the cases the statement must get right: v1 tokens with two property versions in
 * one wallet, listings by a seller who still holds the token and by one whose token is in escrow,
 * sold and cancelled listings, burned tokens still owned and still listed, sellerless listings,
 * zero balances, and ownerships of a token the tokens table does not have.
 */

function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const COLLECTIONS = ['0xc1', '0xc2', '0xc3', '0xc4'];
const WALLETS = Array.from({ length: 12 }, (_, i) => `0xw${i}`);
const TOKENS = 240;
const AT = new Date('2026-06-01T10:00:00Z');

interface Generated {
  tokens: { id: string; collection: string; standard: 'v1' | 'v2'; burned: boolean; stored: boolean }[];
  ownerships: { token: string; version: number; owner: string; collection: string; amount: number }[];
  listings: {
    id: string;
    token: string;
    collection: string;
    seller: string | null;
    status: 'active' | 'sold' | 'cancelled';
  }[];
}

function generate(seed: number): Generated {
  const r = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const out: Generated = { tokens: [], ownerships: [], listings: [] };
  for (let i = 0; i < TOKENS; i++) {
    const token = {
      id: `0xt${i}`,
      collection: pick(COLLECTIONS),
      standard: r() < 0.4 ? ('v1' as const) : ('v2' as const),
      burned: r() < 0.1,
      stored: r() > 0.05,
    };
    out.tokens.push(token);
    const owner = pick(WALLETS);
    const amount = r() < 0.8 ? 1 : 0;
    out.ownerships.push({ token: token.id, version: 0, owner, collection: token.collection, amount });
    if (token.standard === 'v1' && r() < 0.3)
      out.ownerships.push({ token: token.id, version: 1, owner, collection: token.collection, amount: 1 });
    if (r() < 0.35) {
      // The seller still holds it, or it sits in escrow (a seller with no balance of it), or none.
      const seller = r() < 0.5 ? owner : r() < 0.9 ? pick(WALLETS) : null;
      out.listings.push({
        id: `l${i}`,
        token: token.id,
        collection: token.collection,
        seller,
        status: pick(['active', 'active', 'sold', 'cancelled'] as const),
      });
    }
  }
  return out;
}

/** The rule, directly: (wallet, collection) -> distinct tokens held. */
function reference(g: Generated): Map<string, Set<string>> {
  const burned = new Set(g.tokens.filter((t) => t.stored && t.burned).map((t) => t.id));
  const held = new Map<string, Set<string>>();
  const hold = (wallet: string, collection: string, token: string) => {
    if (burned.has(token)) return;
    const key = `${wallet}|${collection}`;
    const set = held.get(key) ?? new Set<string>();
    set.add(token);
    held.set(key, set);
  };
  for (const o of g.ownerships) if (o.amount > 0) hold(o.owner, o.collection, o.token);
  for (const l of g.listings)
    if (l.status === 'active' && l.seller !== null) hold(l.seller, l.collection, l.token);
  return held;
}

describe('holdings: collection holder counts and inventory token counts', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(async () => test?.drop());

  for (const seed of [1, 2, 3]) {
    it(`agree with the reference on generated rows (seed ${seed})`, async () => {
      const { db } = test;
      await sql`TRUNCATE collections, tokens, token_ownerships, listings, collection_snapshots, user_inventory_snapshots`.execute(
        db,
      );
      const g = generate(seed);
      await db
        .insertInto('collections')
        .values(
          COLLECTIONS.map((id) => ({
            collection_id: id,
            token_standard: 'v2' as const,
            creator_address: '0xcreator',
            collection_name: `Collection ${id}`,
            created_at: AT,
            created_version: 1,
            last_transaction_version: 1,
          })),
        )
        .execute();
      await db
        .insertInto('tokens')
        .values(
          g.tokens
            .filter((t) => t.stored)
            .map((t) => ({
              token_data_id: t.id,
              token_standard: t.standard,
              collection_id: t.collection,
              token_name: `Token ${t.id}`,
              is_burned: t.burned,
              last_transaction_version: 1,
            })),
        )
        .execute();
      await db
        .insertInto('token_ownerships')
        .values(
          g.ownerships.map((o) => ({
            token_data_id: o.token,
            property_version: String(o.version),
            owner_address: o.owner,
            collection_id: o.collection,
            token_standard: 'v2',
            amount: String(o.amount),
            last_transaction_version: 1,
          })),
        )
        .execute();
      if (g.listings.length > 0)
        await db
          .insertInto('listings')
          .values(
            g.listings.map((l) => ({
              marketplace: 'm',
              listing_id: l.id,
              contract_address: '0xmarket',
              token_data_id: l.token,
              collection_id: l.collection,
              seller: l.seller,
              price: '100',
              status: l.status,
              last_transaction_version: 1,
            })),
          )
          .execute();

      const held = reference(g);
      const expectedHolders = new Map<string, number>();
      for (const key of held.keys()) {
        const collection = key.split('|')[1] as string;
        expectedHolders.set(collection, (expectedHolders.get(collection) ?? 0) + 1);
      }
      const expectedTokens = new Map<string, number>();
      for (const [key, tokens] of held) {
        const wallet = key.split('|')[0] as string;
        expectedTokens.set(wallet, (expectedTokens.get(wallet) ?? 0) + tokens.size);
      }
      // Each statement on its own, then both from one count (writeHourlySnapshots).
      for (const write of [
        async () => {
          await writeCollectionSnapshots(db, AT);
          await writeInventorySnapshots(db, AT);
        },
        async () => void (await writeHourlySnapshots(db, AT)),
      ]) {
        await sql`TRUNCATE collection_snapshots, user_inventory_snapshots`.execute(db);
        await write();
        const holders = await db
          .selectFrom('collection_snapshots')
          .select(['collection_id', 'holder_count'])
          .execute();
        expect(
          Object.fromEntries(
            holders.filter((h) => h.holder_count > 0).map((h) => [h.collection_id, h.holder_count]),
          ),
        ).toEqual(Object.fromEntries(expectedHolders));
        const inventories = await db
          .selectFrom('user_inventory_snapshots')
          .select(['owner_address', 'token_count'])
          .execute();
        expect(Object.fromEntries(inventories.map((i) => [i.owner_address, i.token_count]))).toEqual(
          Object.fromEntries(expectedTokens),
        );
      }
      // The generated rows hold each case the statement must get right at least once.
      expect(g.ownerships.some((o) => o.version === 1)).toBe(true);
      expect(g.listings.some((l) => l.status === 'active' && l.seller !== null)).toBe(true);
      expect(g.tokens.some((t) => t.burned && t.stored)).toBe(true);
      expect(g.tokens.some((t) => !t.stored)).toBe(true);
    });
  }
});
