import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ActivityEntry,
  Bid,
  ERRORS,
  ListingCard,
  ListingCardDetail,
  ListingCardQuery,
  ListingCardsQuery,
  ListOf,
  One,
  PairOrLootboxQuery,
  SearchQuery,
  SearchResult,
  TokenIdPageQuery,
  TotalListingCardsQuery,
  UserPageQuery,
} from '@mdq/contracts';
import {
  bidsOfBuyer,
  bidsOfCollections,
  findTokenById,
  listingCardParts,
  listingCards,
  listingsOfCollections,
  listingsOfSeller,
  searchMarket,
  TOKEN_TIMELINE_TABLES,
  tokenTimeline,
  totalListingCards,
  userMarketActivity,
  userPurchases,
} from '@mdq/db/read';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { pageOf } from '../lib/paging';
import { collectionsOfPairOrLootbox, inKnownCollections } from '../lib/resolve';
import { ApiError } from '../plugins/errors';
import type { RouteDeps } from './deps';

const tags = ['market'];

/** Market area: listings, bids, search, listing cards and the four user-scoped lists. */
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
        readCache: {
          tables: TOKEN_TIMELINE_TABLES,
        },
      },
    },
    async (request) => {
      const token = await findTokenById(db, request.query.tokenId);
      if (!token) throw new ApiError(404, 'TOKEN_NOT_FOUND', `no token ${request.query.tokenId}`);
      return tokenTimeline(db, token.tokenId, null, pageOf(request));
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
        readCache: {
          tables: [
            'collection_offers',
            'collections',
            'listings',
            'marketplace_activities',
            'metadata_documents',
            'token_offers',
            'token_ownerships',
            'token_rarity',
            'tokens',
          ],
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
          tables: ['collections', 'listings', 'lootboxes', 'tokens'],
          collection: { tables: ['collections', 'listings', 'tokens'] },
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
          tables: ['collection_offers', 'collections', 'lootboxes', 'token_offers'],
          collection: { tables: ['collection_offers', 'collections', 'token_offers'] },
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
      config: { readCache: { tables: ['collections', 'token_name_stems', 'tokens'] }, cacheSeconds: 30 },
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
      config: { readCache: { tables: ['collections', 'listings', 'ranking_snapshots', 'tokens'] } },
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
      config: { readCache: { tables: ['collections', 'listings'] } },
    },
    async (request) => ({
      data: { total: await totalListingCards(db, request.query, request.readState?.version) },
    }),
  );

  app.get(
    '/market/user-activity',
    {
      schema: {
        tags,
        summary: "A wallet's market activity as seller or buyer, newest first",
        querystring: UserPageQuery,
        response: { 200: ListOf(ActivityEntry), ...ERRORS },
      },
      config: { readCache: { tables: ['marketplace_activities'] } },
    },
    async (request) => userMarketActivity(db, request.query.address, pageOf(request)),
  );

  app.get(
    '/market/user-listings',
    {
      schema: {
        tags,
        summary: "A wallet's active listings, newest first",
        querystring: UserPageQuery,
        response: { 200: ListOf(ListingCard), ...ERRORS },
      },
      config: { readCache: { tables: ['listings', 'tokens'] } },
    },
    async (request) => listingsOfSeller(db, request.query.address, pageOf(request)),
  );

  app.get(
    '/market/user-bids',
    {
      schema: {
        tags,
        summary: "A wallet's live bids (token and collection offers), newest first",
        querystring: UserPageQuery,
        response: { 200: ListOf(Bid), ...ERRORS },
      },
      config: { readCache: { tables: ['collection_offers', 'token_offers'] } },
    },
    async (request) => {
      const { page, until } = await bidsOfBuyer(db, request.query.address, pageOf(request), now());
      if (until !== null) request.cacheUntil = until;
      return page;
    },
  );

  app.get(
    '/market/user-history',
    {
      schema: {
        tags,
        summary: "A wallet's purchases (filled listings and accepted offers as buyer), newest first",
        querystring: UserPageQuery,
        response: { 200: ListOf(ActivityEntry), ...ERRORS },
      },
      config: { readCache: { tables: ['marketplace_activities'] } },
    },
    async (request) => userPurchases(db, request.query.address, pageOf(request)),
  );
}
