import { createApiKey, type Db } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/index';
import type { ResponseCacheBounds } from '../../src/plugins/response-cache';

/** Long-form address from a small number: addr(1) = 0x000…001. */
export function addr(n: number | string): string {
  return `0x${n.toString(16).padStart(64, '0')}`;
}

const T0 = Date.parse('2026-11-01T00:00:00Z');
/** A chain timestamp `version` seconds after a fixed origin: versions and times move together. */
export function at(version: number): string {
  return new Date(T0 + version * 1000).toISOString();
}

/** Hand-inserted rows with defaults, for tests that run before the indexer's data path exists. */
export class Fixtures {
  constructor(readonly db: Db) {}

  async collection(o: {
    id: string;
    creator: string;
    name: string;
    uri?: string;
    lootboxId?: number;
    standard?: 'v1' | 'v2';
    owners?: number;
    version?: number;
  }) {
    await this.db
      .insertInto('collections')
      .values({
        collection_id: o.id,
        token_standard: o.standard ?? 'v2',
        creator_address: o.creator,
        collection_name: o.name,
        description: `about ${o.name}`,
        uri: o.uri ?? `https://example.com/${encodeURIComponent(o.name)}.json`,
        current_supply: '0',
        max_supply: '1000',
        total_minted: '0',
        owner_count: o.owners ?? 0,
        lootbox_id: o.lootboxId ?? null,
        created_at: at(o.version ?? 1),
        created_version: o.version ?? 1,
        last_transaction_version: o.version ?? 1,
      })
      .execute();
  }

  async token(o: {
    id: string;
    collectionId: string;
    creator: string;
    collection: string;
    name: string;
    lootboxId?: number;
    tier?: string;
    burned?: boolean;
    version?: number;
    standard?: 'v1' | 'v2';
  }) {
    await this.db
      .insertInto('tokens')
      .values({
        token_data_id: o.id,
        token_standard: o.standard ?? 'v2',
        collection_id: o.collectionId,
        creator_address: o.creator,
        collection_name: o.collection,
        token_name: o.name,
        description: null,
        token_uri: `https://example.com/${encodeURIComponent(o.name)}.json`,
        properties: null,
        supply: '1',
        maximum: '1',
        largest_property_version: '0',
        is_burned: o.burned ?? false,
        lootbox_id: o.lootboxId ?? null,
        lootbox_tier: o.tier ?? null,
        minted_at: at(o.version ?? 2),
        minted_version: o.version ?? 2,
        last_transaction_version: o.version ?? 2,
      })
      .execute();
  }

  async ownership(o: {
    tokenId: string;
    owner: string;
    collectionId: string;
    amount?: string;
    version?: number;
  }) {
    await this.db
      .insertInto('token_ownerships')
      .values({
        token_data_id: o.tokenId,
        property_version: '0',
        owner_address: o.owner,
        collection_id: o.collectionId,
        token_standard: 'v2',
        amount: o.amount ?? '1',
        last_transaction_version: o.version ?? 2,
      })
      .execute();
  }

  async tokenActivity(o: {
    version: number;
    index?: number;
    kind: string;
    tokenId: string;
    /** Null: stored without its collection, as a v2 transfer or burn that wrote no Token resource. */
    collectionId: string | null;
    from?: string | null;
    to?: string | null;
  }) {
    await this.db
      .insertInto('token_activities')
      .values({
        transaction_version: o.version,
        event_index: o.index ?? 0,
        kind: o.kind,
        event_type: `0x4::token::${o.kind}`,
        token_data_id: o.tokenId,
        token_standard: 'v2',
        collection_id: o.collectionId,
        property_version: '0',
        from_address: o.from ?? null,
        to_address: o.to ?? null,
        amount: '1',
        transaction_timestamp: at(o.version),
      })
      .execute();
  }

  async marketActivity(o: {
    version: number;
    index?: number;
    kind: string;
    tokenId: string | null;
    collectionId: string;
    collection: string;
    creator: string;
    price: string;
    seller?: string | null;
    buyer?: string | null;
    listingId?: string;
    coinType?: string | null;
  }) {
    await this.db
      .insertInto('marketplace_activities')
      .values({
        transaction_version: o.version,
        event_index: o.index ?? 1,
        kind: o.kind,
        marketplace: 'mdq',
        contract_address: addr(0x6d71),
        raw_event_type: `mdq::${o.kind}`,
        token_data_id: o.tokenId,
        token_standard: 'v2',
        property_version: '0',
        collection_id: o.collectionId,
        collection_name: o.collection,
        creator_address: o.creator,
        token_name: null,
        price: o.price,
        token_amount: '1',
        coin_type: o.coinType === undefined ? '0x1::aptos_coin::AptosCoin' : o.coinType,
        seller: o.seller ?? null,
        buyer: o.buyer ?? null,
        listing_id: o.listingId ?? null,
        offer_id: null,
        commission: null,
        royalties: null,
        transaction_timestamp: at(o.version),
      })
      .execute();
  }

  async listing(o: {
    id: string;
    tokenId: string;
    tokenName: string;
    collectionId: string;
    collection: string;
    creator: string;
    seller: string;
    price: string;
    status?: 'active' | 'sold' | 'cancelled';
    version: number;
    coinType?: string;
  }) {
    await this.db
      .insertInto('listings')
      .values({
        marketplace: 'mdq',
        listing_id: o.id,
        contract_address: addr(0x6d71),
        token_data_id: o.tokenId,
        token_standard: 'v2',
        property_version: '0',
        collection_id: o.collectionId,
        collection_name: o.collection,
        creator_address: o.creator,
        token_name: o.tokenName,
        seller: o.seller,
        buyer: null,
        price: o.price,
        token_amount: '1',
        coin_type: o.coinType ?? '0x1::aptos_coin::AptosCoin',
        status: o.status ?? 'active',
        listed_at: at(o.version),
        listed_version: o.version,
        closed_at: null,
        last_transaction_version: o.version,
      })
      .execute();
  }

  async tokenOffer(o: {
    id: string;
    tokenId: string;
    collectionId: string;
    buyer: string;
    price: string;
    version: number;
    status?: 'active' | 'filled' | 'cancelled';
    expires?: string | null;
  }) {
    await this.db
      .insertInto('token_offers')
      .values({
        marketplace: 'mdq',
        offer_id: o.id,
        contract_address: addr(0x6d71),
        token_data_id: o.tokenId,
        token_standard: 'v2',
        property_version: '0',
        collection_id: o.collectionId,
        collection_name: null,
        creator_address: null,
        token_name: null,
        buyer: o.buyer,
        seller: null,
        price: o.price,
        token_amount: '1',
        coin_type: null,
        status: o.status ?? 'active',
        expiration_time: o.expires ?? null,
        created_at: at(o.version),
        created_version: o.version,
        last_transaction_version: o.version,
      })
      .execute();
  }

  async collectionOffer(o: {
    id: string;
    collectionId: string;
    buyer: string;
    price: string;
    version: number;
    remaining?: string;
  }) {
    await this.db
      .insertInto('collection_offers')
      .values({
        marketplace: 'mdq',
        offer_id: o.id,
        contract_address: addr(0x6d71),
        collection_id: o.collectionId,
        collection_name: null,
        creator_address: null,
        buyer: o.buyer,
        price: o.price,
        token_amount: '5',
        remaining_amount: o.remaining ?? '5',
        coin_type: null,
        status: 'active',
        expiration_time: null,
        created_at: at(o.version),
        created_version: o.version,
        last_transaction_version: o.version,
      })
      .execute();
  }

  async lootbox(o: {
    id: number;
    creator: string;
    name: string;
    collectionId: string;
    mintStart: string;
    mintEnd?: string | null;
    maxSupply?: string;
    purchased?: string;
    minted?: string;
    version?: number;
    tiers?: { name: string; weight: string; maxSupply: string; minted?: string }[];
  }) {
    await this.db
      .insertInto('lootboxes')
      .values({
        lootbox_id: o.id,
        creator_address: o.creator,
        collection_name: o.name,
        collection_id: o.collectionId,
        price: '100000000',
        coin_type: '0x1::aptos_coin::AptosCoin',
        max_supply: o.maxSupply ?? '100',
        mint_start: o.mintStart,
        mint_end: o.mintEnd ?? null,
        minted: o.minted ?? '0',
        purchased: o.purchased ?? '0',
        revenue: '0',
        created_at: at(o.version ?? o.id),
        created_version: o.version ?? o.id,
        last_transaction_version: o.version ?? o.id,
      })
      .execute();
    for (const [position, tier] of (o.tiers ?? []).entries()) {
      await this.db
        .insertInto('lootbox_tiers')
        .values({
          lootbox_id: o.id,
          tier_name: tier.name,
          position,
          weight: tier.weight,
          max_supply: tier.maxSupply,
          minted: tier.minted ?? '0',
        })
        .execute();
    }
  }

  async purchase(o: {
    version: number;
    lootboxId: number;
    buyer: string;
    quantity?: string;
    amount: string;
    at: string;
  }) {
    await this.db
      .insertInto('lootbox_purchases')
      .values({
        transaction_version: o.version,
        event_index: 0,
        lootbox_id: o.lootboxId,
        buyer: o.buyer,
        quantity: o.quantity ?? '1',
        amount_paid: o.amount,
        coin_type: '0x1::aptos_coin::AptosCoin',
        transaction_timestamp: o.at,
      })
      .execute();
  }

  async attribute(tokenId: string, collectionId: string, traitType: string, value: string) {
    await this.db
      .insertInto('token_attributes')
      .values({ token_data_id: tokenId, collection_id: collectionId, trait_type: traitType, value })
      .execute();
  }
}

export interface ApiHarness {
  test: TestDatabase;
  app: FastifyInstance;
  fx: Fixtures;
  key: string;
  /** GET with the key; `path` is relative to `/local/api`. */
  get(path: string, options?: Omit<InjectOptions, 'url' | 'method'>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function createHarness(
  options: {
    readDb?: (db: Db) => Db;
    clock?: () => Date;
    rateLimitPerMinute?: number;
    /** Push the read state (LISTEN on the test database) and trust a reading this long. */
    pushedMaxStaleMs?: number;
    /** The response cache's bounds (the defaults otherwise). */
    cache?: ResponseCacheBounds;
  } = {},
): Promise<ApiHarness> {
  const test = await createTestDatabase();
  const readDb = options.readDb?.(test.db);
  const app = await buildApp({
    db: test.db,
    ...(readDb ? { readDb } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.rateLimitPerMinute ? { rateLimit: { perMinute: options.rateLimitPerMinute } } : {}),
    ...(options.cache ? { cache: options.cache } : {}),
    ...(options.pushedMaxStaleMs
      ? { pushedReadState: { listenUrl: test.url, maxStaleMs: options.pushedMaxStaleMs } }
      : {}),
    network: 'local',
  });
  const key = (await createApiKey(test.db, { name: 'test' })).key;
  return {
    test,
    app,
    fx: new Fixtures(test.db),
    key,
    get: (path, options = {}) =>
      app.inject({
        ...options,
        method: 'GET',
        url: path.startsWith('/local') ? path : `/local/api${path}`,
        headers: { 'x-api-key': key, ...(options.headers ?? {}) },
      }),
    async close() {
      await app.close();
      await test.drop();
    },
  };
}
