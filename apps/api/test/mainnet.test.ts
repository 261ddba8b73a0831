import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LOOTBOX_ADDRESS, DEFAULT_MARKETPLACE_ADDRESS, normalizeAddress } from '@mdq/chain';
import { testFixturesRoot } from '@mdq/chain/fixtures';
import { createApiKey } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { createDecoder, fullnodeSource, runIndexer } from '@mdq/indexer';
import { noopNotifier } from '@mdq/jobs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

/*
 * Real mainnet data end to end: the devnet serves the recorded mainnet transactions of the
 * fixtures as a fullnode would, the real indexer ingests them through the SDK, and the API must
 * answer with what the chain says — read here straight from the raw event JSON of the fixture
 * files, not from anything mdq computed.
 */
const root = testFixturesRoot();

interface RawEvent {
  typeStr: string;
  data: string;
}

function rawEvents(file: string, suffix: string): Record<string, unknown>[] {
  const tx = JSON.parse(readFileSync(join(root as string, 'transactions', file), 'utf8')) as {
    user: { events: RawEvent[] };
  };
  return tx.user.events
    .filter((e) => e.typeStr.endsWith(suffix))
    .map((e) => JSON.parse(e.data) as Record<string, unknown>);
}

const inner = (v: unknown) =>
  normalizeAddress(((v as { vec: { inner: string }[] }).vec[0] as { inner: string }).inner);

describe.skipIf(root === null)('API on ingested mainnet transactions (needs ../shared/fixtures)', () => {
  let test: TestDatabase;
  let devnet: DevnetServer;
  let app: FastifyInstance;
  let key: string;
  const get = async (path: string) => {
    const res = await app.inject({ url: `/mainnet${path}`, headers: { 'x-api-key': key } });
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    test = await createTestDatabase();
    devnet = await startDevnetServer({ port: 0, transactionsDir: join(root as string, 'transactions') });
    const stats = await runIndexer({
      db: test.db,
      source: fullnodeSource(devnet.url, { sparse: true }),
      decode: createDecoder({
        marketplaceAddress: DEFAULT_MARKETPLACE_ADDRESS,
        lootboxAddress: DEFAULT_LOOTBOX_ADDRESS,
      }),
      notifier: noopNotifier,
      batchSize: 20,
      untilCaughtUp: true,
    });
    expect(stats.failed).toBe(0);
    // "Now" at the fixtures' time, so the offers placed then are still live.
    app = await buildApp({ db: test.db, network: 'mainnet', clock: () => new Date('2025-02-19T00:00:00Z') });
    key = (await createApiKey(test.db, { name: 'mainnet' })).key;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await devnet?.close();
    await test?.drop();
  });

  it('lists the two Wapal listings of 2382251863 at the chain price, for the chain seller', async () => {
    const placed = rawEvents('2382251863_wapal_place_listing.json', '::events::ListingPlacedEvent');
    expect(placed).toHaveLength(2);
    const seller = normalizeAddress(placed[0]?.['seller'] as string);
    const meta = placed[0]?.['token_metadata'] as Record<string, unknown>;
    const body = await get(
      `/api/market/listings-by-collection?creator=${meta['creator_address']}&collection=${encodeURIComponent(meta['collection_name'] as string)}`,
    );
    const listed = (body.data as { tokenId: string; price: string; seller: string }[]).map((l) => [
      l.tokenId,
      l.price,
      l.seller,
    ]);
    for (const event of placed) {
      expect(listed).toContainEqual([
        inner((event['token_metadata'] as Record<string, unknown>)['token']),
        event['price'],
        seller,
      ]);
    }
    // The same wallet also listed on Tradeport (2386809975): its listings include both Wapal ones.
    const mine = await get(`/market/user-listings?address=${placed[0]?.['seller']}`);
    const prices = (mine.data as { tokenId: string; price: string }[]).map((l) => [l.tokenId, l.price]);
    for (const event of placed) {
      expect(prices).toContainEqual([
        inner((event['token_metadata'] as Record<string, unknown>)['token']),
        event['price'],
      ]);
    }
  });

  it('shows the Tradeport v2 sales of 2386455218 in each token history with buyer, seller and price', async () => {
    const buys = rawEvents('2386455218_tradeport_v2_fill_listing.json', '::listings_v2::BuyEvent');
    expect(buys).toHaveLength(4);
    for (const buy of buys) {
      const tokenId = normalizeAddress((buy['token'] as { inner: string }).inner);
      const history = await get(`/market/token-history-by-tokenId?tokenId=${tokenId}`);
      const sale = (history.data as Record<string, unknown>[]).find((e) => e['kind'] === 'fill_listing');
      expect(sale, tokenId).toMatchObject({
        price: buy['price'],
        seller: normalizeAddress(buy['seller'] as string),
        buyer: normalizeAddress(buy['buyer'] as string),
      });
    }
  });

  it('has the live Wapal collection offer of 2382373209 among the bids of Cool Sloths', async () => {
    const [offer] = rawEvents(
      '2382373209_wapal_place_collection_offer.json',
      '::events::CollectionOfferPlacedEvent',
    );
    const meta = offer?.['collection_metadata'] as Record<string, unknown>;
    const body = await get(
      `/market/bids-by-collection?creator=${meta['creator_address']}&collection=${encodeURIComponent(meta['collection_name'] as string)}`,
    );
    expect(body.data).toContainEqual(
      expect.objectContaining({
        price: offer?.['price'],
        buyer: normalizeAddress(offer?.['purchaser'] as string),
      }),
    );
  });
});
