import { createHash } from 'node:crypto';
import { normalizeAddress } from '@mdq/chain';
import { beforeAll, describe, expect, it } from 'vitest';
import { DevnetChain, type DevnetFacts, type RestUserTransaction, streamTransactions } from '../src/index';

const options = { preset: 'small' as const, seed: 5 };
let facts: DevnetFacts;
let txs: RestUserTransaction[];

type Json = Record<string, unknown>;
const obj = (v: unknown) => v as Json;
const vec = (v: unknown) => (obj(v).vec as unknown[]) ?? [];
const sha = (s: string) => `0x${createHash('sha256').update(s).digest('hex')}`;

/** The collection id an indexer derives from Wapal token/collection metadata. */
function collectionIdOf(meta: Json): string {
  const coll = vec(meta.collection)[0];
  if (coll !== undefined) return normalizeAddress(obj(coll).inner as string);
  return sha(`${normalizeAddress(meta.creator_address as string)}::${meta.collection_name}`);
}

beforeAll(() => {
  facts = new DevnetChain(options).getFacts();
  txs = [...streamTransactions(options)].filter(
    (t): t is RestUserTransaction => t.type === 'user_transaction',
  );
});

describe('facts', () => {
  it('sales and volume per window equal the fill events in the chain', () => {
    const now = Number(facts.chain.nowUs);
    const starts = {
      '24h': Number(facts.chain.windowStartUs['24h']),
      '7d': Number(facts.chain.windowStartUs['7d']),
      '30d': Number(facts.chain.windowStartUs['30d']),
      all: 0,
    };
    const expected = new Map<
      string,
      { sales: Record<string, number>; volume: Record<string, bigint>; buyers: Record<string, Set<string>> }
    >();
    for (const tx of txs) {
      const ts = Number(tx.timestamp);
      expect(ts).toBeLessThanOrEqual(now);
      for (const e of tx.events) {
        if (!/::events::(ListingFilled|TokenOfferFilled|CollectionOfferFilled)Event$/.test(e.type)) continue;
        const d = obj(e.data);
        const id = collectionIdOf(obj(d.token_metadata));
        let agg = expected.get(id);
        if (agg === undefined) {
          agg = { sales: {}, volume: {}, buyers: {} };
          expected.set(id, agg);
        }
        for (const [w, start] of Object.entries(starts)) {
          if (ts < start) continue;
          agg.sales[w] = (agg.sales[w] ?? 0) + 1;
          agg.volume[w] = (agg.volume[w] ?? 0n) + BigInt(d.price as string);
          const buyers = agg.buyers[w] ?? new Set<string>();
          buyers.add(normalizeAddress(d.purchaser as string));
          agg.buyers[w] = buyers;
        }
      }
    }
    let total = 0n;
    for (const c of facts.collections) {
      const agg = expected.get(c.collectionId);
      for (const w of ['24h', '7d', '30d', 'all'] as const) {
        expect(c.sales[w], `${c.name} sales ${w}`).toBe(agg?.sales[w] ?? 0);
        expect(c.volume[w], `${c.name} volume ${w}`).toBe(String(agg?.volume[w] ?? 0n));
        expect(c.uniqueBuyers[w]).toBe(agg?.buyers[w]?.size ?? 0);
      }
      total += BigInt(c.volume.all);
    }
    expect(facts.totals.volume).toBe(String(total));
    // Rankings need variety: windows and collections must not all look alike.
    const vols = facts.collections.map((c) => BigInt(c.volume['7d']));
    expect(new Set(vols.map(String)).size).toBeGreaterThan(3);
    expect(facts.collections.some((c) => c.sales['24h'] > 0)).toBe(true);
  });

  it('floor now and active listings equal a replay of the listing events', () => {
    const active = new Map<string, { id: string; price: bigint }>();
    for (const tx of txs) {
      for (const e of tx.events) {
        const m = /::events::(ListingPlaced|ListingCanceled|ListingFilled)Event$/.exec(e.type);
        if (!m) continue;
        const d = obj(e.data);
        if (m[1] === 'ListingPlaced')
          active.set(d.listing as string, {
            id: collectionIdOf(obj(d.token_metadata)),
            price: BigInt(d.price as string),
          });
        else active.delete(d.listing as string);
      }
    }
    for (const c of facts.collections) {
      const mine = [...active.values()].filter((l) => l.id === c.collectionId);
      expect(c.activeListings).toBe(mine.length);
      const floor = mine.reduce<bigint | null>((m, l) => (m === null || l.price < m ? l.price : m), null);
      expect(c.floor.now).toBe(floor === null ? null : String(floor));
    }
    expect(
      facts.collections.filter(
        (c) => c.floor.now !== null && c.floor['7d'] !== null && c.floor.now !== c.floor['7d'],
      ).length,
    ).toBeGreaterThan(0);
  });

  it('the listing log replays to the floors at every window start and now', () => {
    // The floor at T from the log: each open listing's last price before T.
    const floorAt = (collectionId: string, t: bigint) => {
      let min: bigint | null = null;
      for (const l of facts.listings) {
        if (l.collectionId !== collectionId || (l.end !== null && BigInt(l.end.timestampUs) < t)) continue;
        const price = l.prices.filter((p) => BigInt(p.timestampUs) < t).at(-1)?.price;
        if (price !== undefined && (min === null || BigInt(price) < min)) min = BigInt(price);
      }
      return min === null ? null : String(min);
    };
    const now = BigInt(facts.chain.nowUs) + 1n;
    for (const c of facts.collections) {
      expect([c.name, floorAt(c.collectionId, now)]).toEqual([c.name, c.floor.now]);
      for (const w of ['24h', '7d', '30d'] as const)
        expect([c.name, w, floorAt(c.collectionId, BigInt(facts.chain.windowStartUs[w]))]).toEqual([
          c.name,
          w,
          c.floor[w],
        ]);
    }
    // Every ListingPlaced/Canceled/Filled event of the chain is in the log, and nothing else.
    const events = txs.flatMap((tx) =>
      tx.events.filter((e) => /::events::Listing(Placed|Canceled|Filled)Event$/.test(e.type)),
    );
    const logged = facts.listings.reduce((n, l) => n + l.prices.length + (l.end === null ? 0 : 1), 0);
    expect(logged).toBe(events.length);
    expect(facts.listings.some((l) => l.prices.length > 1)).toBe(true);
  });

  it('the collection-offer log matches the offer events and the offer counts', () => {
    const events = (kind: string) =>
      txs.flatMap((tx) => tx.events.filter((e) => e.type.endsWith(`::events::CollectionOffer${kind}Event`)));
    expect(facts.collectionOffers.length).toBe(events('Placed').length);
    expect(facts.collectionOffers.reduce((n, o) => n + o.filled, 0)).toBe(events('Filled').length);
    expect(facts.collectionOffers.filter((o) => o.end?.kind === 'cancelled').length).toBe(
      events('Canceled').length,
    );
    const now = BigInt(facts.chain.nowUs);
    for (const c of facts.collections) {
      const live = facts.collectionOffers.filter(
        (o) => o.collectionId === c.collectionId && o.end === null && BigInt(o.expiresUs) > now,
      );
      expect([c.name, live.length]).toEqual([c.name, c.collectionOffers.active]);
    }
  });

  it('lootbox revenue, purchases and minted tiers equal the lootbox events', () => {
    const revenue = new Map<string, bigint>();
    const tiers = new Map<string, number>();
    for (const tx of txs) {
      for (const e of tx.events) {
        const d = obj(e.data);
        if (e.type.endsWith('::lootbox::LootboxPurchasedEvent'))
          revenue.set(
            d.lootbox_id as string,
            (revenue.get(d.lootbox_id as string) ?? 0n) + BigInt(d.amount_paid as string),
          );
        if (e.type.endsWith('::lootbox::LootboxOpenedEvent'))
          tiers.set(`${d.lootbox_id}/${d.tier}`, (tiers.get(`${d.lootbox_id}/${d.tier}`) ?? 0) + 1);
      }
    }
    const statuses = new Set<string>();
    for (const lb of facts.lootboxes) {
      statuses.add(lb.status);
      expect(lb.revenue.all).toBe(String(revenue.get(String(lb.lootboxId)) ?? 0n));
      for (const t of lb.tiers) expect(t.minted).toBe(tiers.get(`${lb.lootboxId}/${t.name}`) ?? 0);
      expect(lb.minted).toBe(lb.tiers.reduce((a, t) => a + t.minted, 0));
    }
    expect(statuses.size).toBeGreaterThanOrEqual(3);
  });

  it('users, tokens and supplies are consistent', () => {
    for (const c of facts.collections) {
      expect(c.supply).toBe(c.minted - c.burned);
      const tokens = facts.tokens[c.collectionId];
      expect(tokens?.length).toBe(c.supply);
      expect(new Set(tokens?.map((t) => t.owner)).size).toBe(c.holders);
    }
    const owners = new Map<string, number>();
    for (const list of Object.values(facts.tokens))
      for (const t of list) owners.set(t.owner, (owners.get(t.owner) ?? 0) + 1);
    for (const u of facts.users) expect(u.tokensHeld).toBe(owners.get(u.address) ?? 0);
    // Skewed traits: the most common value of a trait is well above the rarest.
    const [first] = Object.values(facts.tokens).filter((l) => l.length > 100);
    const counts = new Map<string, number>();
    for (const t of first ?? [])
      for (const [k, v] of Object.entries(t.traits))
        counts.set(`${k}=${v}`, (counts.get(`${k}=${v}`) ?? 0) + 1);
    const values = [...counts.values()];
    expect(Math.max(...values)).toBeGreaterThan(4 * Math.min(...values));
  });
});
