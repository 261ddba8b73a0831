import { type Db, sql } from '@mdq/db';
import { emptyBatch, type MarketActivityRow, writeBatch } from '@mdq/db/ingest';
import { readRanking } from '@mdq/db/worker';
import type { DevnetFacts } from '@mdq/devnet';
import { createIndexedDatabase, type IndexedDatabase } from '@mdq/indexer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeCollectionRanking } from '../src/tasks/rankings';

/*
 * A collection pumped by wash trades: on an indexed devnet chain, two wallets pass one token of the
 * least-traded collection back and forth at a high price, written through the indexer's own batch
 * writer (which flags them). Trending must ignore that volume; its includeFlagged variant must not.
 */
let indexed: IndexedDatabase;
let db: Db;
let facts: DevnetFacts;
let now: Date;
let pumped: string;

beforeAll(async () => {
  indexed = await createIndexedDatabase({ seed: 11, preset: 'tiny' });
  db = indexed.db;
  facts = indexed.facts;
  now = new Date(Number(BigInt(facts.chain.nowUs) / 1000n));
  await computeCollectionRanking(db, 'trending', now);
  const before = await readRanking(db, 'trending');
  // The collection in last place (or one without any sale this week) gets pumped.
  const unranked = facts.collections.find(
    (c) => c.lootboxId === null && !before.some((e) => e.collectionId === c.collectionId),
  );
  pumped = unranked?.collectionId ?? (before.at(-1)?.collectionId as string);
  const token = facts.tokens[pumped]?.[0];
  if (!token) throw new Error('the pumped collection has no token in the facts');
  const [x, y] = [`0x${'a1'.repeat(32)}`, `0x${'b2'.repeat(32)}`];
  const version = facts.chain.lastVersion + 1;
  const batch = emptyBatch('wash-pump', version + 19);
  for (let i = 0; i < 20; i++) {
    const at = new Date(now.getTime() - (40 - i) * 3_600_000).toISOString();
    batch.marketActivities.push(sale(version + i, token.tokenId, pumped, i % 2 ? y : x, i % 2 ? x : y, at));
  }
  await writeBatch(db, batch);
  await computeCollectionRanking(db, 'trending', now);
}, 180_000);

afterAll(async () => {
  await indexed?.close();
});

function sale(
  version: number,
  tokenId: string,
  collectionId: string,
  seller: string,
  buyer: string,
  at: string,
): MarketActivityRow {
  return {
    transaction_version: version,
    event_index: 0,
    kind: 'fill_listing',
    marketplace: 'wapal',
    contract_address: facts.chain.marketplaceAddress,
    raw_event_type: 'test::events::ListingFilledEvent',
    token_data_id: tokenId,
    token_standard: 'v2',
    property_version: null,
    collection_id: collectionId,
    collection_name: null,
    creator_address: null,
    token_name: null,
    price: '500000000000',
    token_amount: '1',
    coin_type: null,
    seller,
    buyer,
    listing_id: `wash-${version}`,
    offer_id: null,
    commission: null,
    royalties: null,
    transaction_timestamp: at,
    seller_funded: false,
  };
}

describe('wash-pumped collection in trending', () => {
  it('flags every pumped sale as a round trip and churn', async () => {
    const { rows } = await sql<{ flags: string[] }>`
      SELECT wash_flags AS flags FROM marketplace_activities WHERE listing_id LIKE 'wash-%'`.execute(db);
    expect(rows).toHaveLength(20);
    for (const r of rows) expect(r.flags).toEqual(['round_trip', 'token_churn']);
  });

  it('does not top trending, but tops it with flagged sales included', async () => {
    const clean = await readRanking(db, 'trending');
    const raw = await readRanking(db, 'trending_with_flagged');
    expect(raw[0]?.collectionId).toBe(pumped);
    expect(clean[0]?.collectionId).not.toBe(pumped);
    const rawVolume = BigInt(String(raw[0]?.metrics['volume']));
    expect(rawVolume >= 20n * 500_000_000_000n).toBe(true);
    const cleanEntry = clean.find((e) => e.collectionId === pumped);
    expect(BigInt(String(cleanEntry?.metrics['volume'] ?? '0')) < 500_000_000_000n).toBe(true);
  });
});
