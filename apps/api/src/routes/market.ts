import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ActivityEntry,
  Address,
  Bid,
  ERRORS,
  IsoTime,
  ListingCard,
  ListOf,
  LootboxId,
  Name,
  Nullable,
  One,
  pageQuery,
  SearchResult,
  TokenSummary,
  U64Out,
} from '@mdq/contracts';
import {
  bidsOfCollections,
  findTokenById,
  listingCardParts,
  listingCards,
  listingsOfCollections,
  searchMarket,
  storedCollectionOf,
  TOKEN_TIMELINE_TABLES,
  tokenTimeline,
  totalListingCards,
} from '@mdq/db/read';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { pageOf } from '../lib/paging';
import { collectionsOfPairOrLootbox, foundToken, inKnownCollections, ofKnownSubject } from '../lib/resolve';
import { ApiError } from '../plugins/errors';
import type { RouteDeps } from './deps';

const TokenIdPageQuery = Type.Object({
  tokenId: Address('token id (token data id or token object address)'),
  ...pageQuery(20),
});

const ListingCardQuery = Type.Object({
  tokenId: Address('token id'),
  tokenStandard: Type.Union([Type.Literal('v1'), Type.Literal('v2')], { description: 'token standard' }),
});

const PairOrLootboxQuery = Type.Object({
  creator: Type.Optional(Address('creator address of the collection (with collection)')),
  collection: Type.Optional(Name('collection name (with creator)')),
  lootboxId: Type.Optional(LootboxId('alternative to creator + collection')),
  ...pageQuery(20),
});

const SearchQuery = Type.Object({
  text: Type.String({ minLength: 1, maxLength: 100, description: 'search text (typo-tolerant)' }),
  limit: Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'hits per kind' }),
});

const filters = {
  search: Type.Optional(
    Type.String({ maxLength: 100, description: 'token or collection name (contains / similar)' }),
  ),
  minPrice: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,20}$', description: 'minimum price, smallest unit (u64 string)' }),
  ),
  maxPrice: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,20}$', description: 'maximum price, smallest unit (u64 string)' }),
  ),
  coinType: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'payment coin type' })),
  collectionName: Type.Optional(Name('collection name')),
  creatorAddress: Type.Optional(Address('creator address')),
  collectionUrl: Type.Optional(Type.String({ maxLength: 2048, description: 'collection URI' })),
};

const ListingCardsQuery = Type.Object({
  ...filters,
  byPopular: Type.Boolean({
    default: false,
    description: "sort by the collection's 7-day trending rank, then newest",
  }),
  ...pageQuery(20),
});

const TotalListingCardsQuery = Type.Object(filters);

const Sale = Type.Object({
  price: U64Out,
  coinType: Nullable(Type.String()),
  seller: Nullable(Type.String()),
  buyer: Nullable(Type.String()),
  timestamp: IsoTime,
  version: Type.Integer(),
});

const ListingCardDetail = Type.Object({
  token: TokenSummary,
  /** The cheapest active listing, else the most recent closed one. */
  listing: Nullable(ListingCard),
  status: Nullable(Type.String({ description: 'active, sold, cancelled; null when never listed' })),
  owners: Type.Array(Type.Object({ owner: Type.String(), amount: U64Out })),
  floorPrice: Nullable(U64Out),
  bestBid: Nullable(Bid),
  lastSale: Nullable(Sale),
  priceHistory: Type.Array(Sale),
  rarityRank: Nullable(Type.Integer()),
});

const tags = ['market'];

/** A token's card: the token and its document, listings, holders, floor, best bid, sales and rarity. */
const LISTING_CARD_TABLES = [
  'collection_offers',
  'collections:identity',
  'listings',
  'marketplace_activities',
  'metadata_documents',
  'token_offers',
  'token_ownerships',
  'token_rarity',
  'tokens',
] as const;

/** `/market/*` but the wallet-scoped lists (`market/user.ts`): listings, bids, search, listing cards, a token's history. */
export async function marketRoutes(scope: FastifyInstance, { readDb: db, now }: RouteDeps): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/market/token-history-by-tokenId',
    {
      schema: {
        tags,
        summary: "A token's transaction history by id (token and market events, newest first)",
        querystring: TokenIdPageQuery,
        response: { 200: ListOf(ActivityEntry), ...ERRORS },
      },
      config: {
        // Keyed on the token's collection: a write elsewhere leaves the token's history cached.
        readCache: {
          tables: TOKEN_TIMELINE_TABLES,
          collection: { tables: TOKEN_TIMELINE_TABLES, byToken: true },
        },
      },
    },
    async (request) => {
      const { tokenId } = request.query;
      return ofKnownSubject(
        await tokenTimeline(
          db,
          { id: tokenId, collection: storedCollectionOf(tokenId) },
          null,
          pageOf(request),
        ),
        async () => foundToken(await findTokenById(db, tokenId), `no token ${tokenId}`),
      );
    },
  );

  app.get(
    '/market/listing-card',
    {
      schema: {
        tags,
        summary: 'One token as a listing card: listing, status, floor, best bid, last sale, price history',
        querystring: ListingCardQuery,
        response: { 200: One(ListingCardDetail), ...ERRORS },
      },
      config: {
        // Keyed on the token's collection: a write elsewhere leaves the card cached.
        readCache: {
          tables: LISTING_CARD_TABLES,
          collection: { tables: LISTING_CARD_TABLES, byToken: true },
        },
        cacheSeconds: 5,
      },
    },
    async (request) => {
      const { tokenId, tokenStandard } = request.query;
      const parts = await listingCardParts(db, tokenId, now());
      if (!parts || parts.token.tokenStandard !== tokenStandard) {
        throw new ApiError(404, 'TOKEN_NOT_FOUND', `no ${tokenStandard} token ${tokenId}`);
      }
      const { token, listings, owners, floorPrice, bestBid, sales, rarity } = parts;
      const listing = listings[0] ?? null;
      // The best bid is the only part that moves with the clock: cached until it expires.
      if (bestBid?.expiresAt) request.cacheUntil = Date.parse(bestBid.expiresAt);
      return {
        data: {
          token,
          listing,
          status: listing?.status ?? null,
          owners,
          floorPrice,
          bestBid,
          lastSale: sales[0] ?? null,
          priceHistory: sales,
          rarityRank: rarity?.rank ?? null,
        },
      };
    },
  );

  app.get(
    '/market/listings-by-collection',
    {
      schema: {
        tags,
        summary: "A collection's active listings, cheapest first (creator + collection, or lootboxId)",
        querystring: PairOrLootboxQuery,
        response: { 200: ListOf(ListingCard), ...ERRORS },
      },
      config: {
        readCache: {
          tables: ['collections:identity', 'listings', 'lootboxes', 'tokens'],
          // Asked by pair, no lootbox is read: its collection's lootbox counter is only cautious.
          // Left out, the global one (a purchase or reveal anywhere, ~2 a second on the live
          // bench) retired every collection's page: 12% hits against the token pages' 81%.
          collection: { tables: ['collections:identity', 'listings', 'lootboxes', 'tokens'] },
        },
      },
    },
    async (request) => {
      const collections = await collectionsOfPairOrLootbox(db, request.query);
      return inKnownCollections(
        db,
        collections,
        await listingsOfCollections(db, collections, pageOf(request)),
      );
    },
  );

  app.get(
    '/market/bids-by-collection',
    {
      schema: {
        tags,
        summary: "A collection's live bids (token and collection offers), highest first",
        querystring: PairOrLootboxQuery,
        response: { 200: ListOf(Bid), ...ERRORS },
      },
      config: {
        readCache: {
          tables: ['collection_offers', 'collections:identity', 'lootboxes', 'token_offers'],
          // As listings-by-collection's: the lootbox's counter of the pair's collection, not the global one.
          collection: { tables: ['collection_offers', 'collections:identity', 'lootboxes', 'token_offers'] },
        },
      },
    },
    async (request) => {
      const collections = await collectionsOfPairOrLootbox(db, request.query);
      const { page, until } = await bidsOfCollections(db, collections, pageOf(request), now());
      await inKnownCollections(db, collections, page);
      // Bids expire with the clock: cached until the first live one does.
      if (until !== null) request.cacheUntil = until;
      return page;
    },
  );

  app.get(
    '/market/search',
    {
      schema: {
        tags,
        summary: 'Search collections and tokens by name (typo-tolerant, ranked)',
        querystring: SearchQuery,
        response: { 200: One(SearchResult), ...ERRORS },
      },
      config: {
        readCache: { tables: ['collections:identity', 'token_name_stems', 'tokens'] },
        cacheSeconds: 30,
      },
    },
    async (request) => ({ data: await searchMarket(db, request.query.text, request.query.limit) }),
  );

  app.get(
    '/market/listing-cards',
    {
      schema: {
        tags,
        summary: 'Active listings with filters; newest first, or by popularity',
        description:
          "byPopular=true orders by the listing's collection in the 7-day trending ranking (volume 0.5, " +
          'sales 0.3, unique buyers 0.2; unranked collections last), then newest first.',
        querystring: ListingCardsQuery,
        response: { 200: ListOf(ListingCard), ...ERRORS },
      },
      config: {
        readCache: {
          tables: [
            'active_listing_counts',
            'active_listing_grams',
            'active_listings',
            'collections',
            'ranking_snapshots',
            'tokens',
          ],
        },
      },
    },
    async (request) => {
      const { byPopular, page, limit, cursor, ...filter } = request.query;
      return listingCards(db, filter, byPopular, pageOf(request));
    },
  );

  app.get(
    '/market/total-listing-cards',
    {
      schema: {
        tags,
        summary: 'How many listing cards match the filters (always agrees with listing-cards)',
        querystring: TotalListingCardsQuery,
        response: { 200: One(Type.Object({ total: Type.Integer() })), ...ERRORS },
      },
      config: {
        readCache: {
          tables: ['active_listing_counts', 'active_listing_grams', 'active_listings', 'collections'],
        },
      },
    },
    async (request) => ({
      data: { total: await totalListingCards(db, request.query, request.readState?.version) },
    }),
  );
}
