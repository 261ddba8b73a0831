import { sql } from '@mdq/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexedDatabase, type IndexedDatabase } from '../src/testing';

/*
 * End to end: the devnet serves a generated market over the fullnode REST routes, the real indexer
 * reads it through @aptos-labs/ts-sdk into Postgres, and the stored state must match what the
 * generator itself says the chain implies (its facts), not what our own queries compute.
 */
describe('devnet → indexer (SDK) → Postgres', () => {
  let indexed: IndexedDatabase;
  beforeAll(async () => {
    indexed = await createIndexedDatabase({ seed: 11, preset: 'tiny' });
  }, 120_000);
  afterAll(() => indexed?.close());

  it('ingests the whole chain without a failed transaction', () => {
    expect(indexed.stats.transactions).toBe(
      indexed.facts.chain.lastVersion - indexed.facts.chain.firstVersion + 1,
    );
    expect(indexed.stats.failed).toBe(0);
  });

  it('marks the tokens the generator burned, v1 and v2 alike, and no other', async () => {
    const { rows } = await sql<{ collection_id: string; burned: number }>`
      SELECT collection_id, count(*) FILTER (WHERE is_burned)::int AS burned FROM tokens GROUP BY 1`.execute(
      indexed.db,
    );
    const stored = new Map(rows.map((r) => [r.collection_id, r.burned]));
    // This seed burns v2 tokens only; the seed-7 chain of apps/worker/test/metadata-crawl.test.ts burns v1 ones.
    expect(indexed.facts.collections.some((c) => c.burned > 0)).toBe(true);
    for (const c of indexed.facts.collections) {
      expect([c.name, c.standard, stored.get(c.collectionId) ?? 0]).toEqual([c.name, c.standard, c.burned]);
    }
  });

  it('has every collection with its supply, holders, active listings and floor', async () => {
    const { rows } = await sql<{
      collection_id: string;
      owner_count: number;
      stored_supply: number;
      supply: number;
      active: number;
      floor: string | null;
    }>`
      SELECT c.collection_id, c.owner_count, c.current_supply::int AS stored_supply,
        (SELECT count(*)::int FROM tokens t WHERE t.collection_id = c.collection_id AND NOT t.is_burned) AS supply,
        (SELECT count(*)::int FROM listings l WHERE l.collection_id = c.collection_id AND l.status = 'active') AS active,
        (SELECT min(price)::text FROM listings l WHERE l.collection_id = c.collection_id AND l.status = 'active') AS floor
      FROM collections c`.execute(indexed.db);
    const stored = new Map(rows.map((r) => [r.collection_id, r]));
    expect(indexed.facts.collections.length).toBeGreaterThan(0);
    for (const c of indexed.facts.collections) {
      const row = stored.get(c.collectionId);
      expect(row, c.name).toBeDefined();
      expect({
        name: c.name,
        holders: row?.owner_count,
        supply: row?.supply,
        storedSupply: row?.stored_supply,
        active: row?.active,
        floor: row?.floor,
      }).toEqual({
        name: c.name,
        holders: c.holders,
        supply: c.supply,
        storedSupply: c.supply,
        active: c.activeListings,
        floor: c.floor.now,
      });
    }
  });

  it('names the creator and collection of every token, v2 included', async () => {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM tokens WHERE creator_address IS NULL OR collection_name IS NULL`.execute(
      indexed.db,
    );
    expect(rows[0]?.n).toBe(0);
  });

  it('has every sale and the volume per collection', async () => {
    const { rows } = await sql<{ collection_id: string; sales: number; volume: string }>`
      SELECT collection_id, count(*)::int AS sales, sum(price)::text AS volume FROM marketplace_activities
      WHERE kind IN ('fill_listing', 'fill_token_offer', 'fill_collection_offer') GROUP BY collection_id`.execute(
      indexed.db,
    );
    const stored = new Map(rows.map((r) => [r.collection_id, r]));
    for (const c of indexed.facts.collections) {
      const row = stored.get(c.collectionId);
      expect({ name: c.name, sales: row?.sales ?? 0, volume: row?.volume ?? '0' }).toEqual({
        name: c.name,
        sales: c.sales.all,
        volume: c.volume.all,
      });
    }
  });

  it('has each lootbox with revenue and minted per tier', async () => {
    for (const l of indexed.facts.lootboxes) {
      const box = await indexed.db
        .selectFrom('lootboxes')
        .selectAll()
        .where('lootbox_id', '=', l.lootboxId)
        .executeTakeFirst();
      expect(box, `lootbox ${l.lootboxId}`).toBeDefined();
      expect({ revenue: box?.revenue, minted: box?.minted, purchased: box?.purchased }).toEqual({
        revenue: l.revenue.all,
        minted: String(l.minted),
        purchased: String(l.purchased),
      });
      const tiers = await indexed.db
        .selectFrom('lootbox_tiers')
        .select(['tier_name', 'minted'])
        .where('lootbox_id', '=', l.lootboxId)
        .execute();
      expect(Object.fromEntries(tiers.map((t) => [t.tier_name, Number(t.minted)]))).toEqual(
        Object.fromEntries(l.tiers.map((t) => [t.name, t.minted])),
      );
    }
  });

  it('has what each sampled user holds', async () => {
    for (const u of indexed.facts.users.slice(0, 25)) {
      const held = await indexed.db
        .selectFrom('token_ownerships')
        .select('token_data_id')
        .where('owner_address', '=', u.address)
        .where('amount', '>', '0')
        .execute();
      expect(held.map((h) => h.token_data_id).sort(), u.address).toEqual([...u.tokens].sort());
    }
  });

  it('keeps the traits of every token', async () => {
    for (const [collectionId, tokens] of Object.entries(indexed.facts.tokens).slice(0, 5)) {
      const rows = await indexed.db
        .selectFrom('token_attributes')
        .select(['token_data_id', 'trait_type', 'value'])
        .where('collection_id', '=', collectionId)
        .execute();
      for (const token of tokens) {
        const stored = Object.fromEntries(
          rows.filter((r) => r.token_data_id === token.tokenId).map((r) => [r.trait_type, r.value]),
        );
        expect(stored, token.name).toEqual(token.traits);
      }
    }
  });
});
