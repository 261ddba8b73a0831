import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ActivityEntry, Address, Bid, ERRORS, ListingCard, ListOf, pageQuery } from '@mdq/contracts';
import { bidsOfBuyer, listingsOfSeller, userMarketActivity, userPurchases } from '@mdq/db/read';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { pageOf } from '../../lib/paging';
import type { RouteDeps } from '../deps';

const UserPageQuery = Type.Object({ address: Address('wallet address'), ...pageQuery(20) });

const tags = ['market'];

/** `/market/user-*`: one wallet's market activity, listings, bids and purchases. */
export async function marketUserRoutes(
  scope: FastifyInstance,
  { readDb: db, now }: RouteDeps,
): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/market/user-activity',
    {
      schema: {
        tags,
        summary: "A wallet's market activity as seller or buyer, newest first",
        querystring: UserPageQuery,
        response: { 200: ListOf(ActivityEntry), ...ERRORS },
      },
      config: {
        readCache: { tables: ['marketplace_activities'], wallet: { tables: ['marketplace_activities'] } },
      },
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
      config: { readCache: { tables: ['listings', 'tokens'], wallet: { tables: ['listings', 'tokens'] } } },
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
      config: {
        readCache: {
          tables: ['collection_offers', 'token_offers'],
          wallet: { tables: ['collection_offers', 'token_offers'] },
        },
      },
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
      config: {
        readCache: { tables: ['marketplace_activities'], wallet: { tables: ['marketplace_activities'] } },
      },
    },
    async (request) => userPurchases(db, request.query.address, pageOf(request)),
  );
}
