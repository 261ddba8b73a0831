import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ERRORS,
  ListOf,
  LootboxDetail,
  LootboxIdQuery,
  LootboxQuery,
  LootboxRarities,
  One,
  RaritiesByCollectionQuery,
  Revenue,
  RevenueQuery,
  TokenRarity,
} from '@mdq/contracts';
import {
  findLootboxWithTiers,
  lootboxRevenue,
  lootboxStatusChangesAt,
  raritiesOfCollections,
} from '@mdq/db/read';
import type { FastifyInstance } from 'fastify';
import { pageOf } from '../lib/paging';
import { foundLootbox, inKnownCollections } from '../lib/resolve';
import type { RouteDeps } from './deps';

const tags = ['lootbox'];

/** Lootbox area: details with status, revenue over a window, tier tables and token rarities. */
export async function lootboxRoutes(scope: FastifyInstance, { readDb: db, now }: RouteDeps): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/lootbox',
    {
      schema: {
        tags,
        summary: 'A lootbox with its status (upcoming, active, sold_out, ended) and tiers',
        querystring: LootboxQuery,
        response: { 200: One(LootboxDetail), ...ERRORS },
      },
      config: { readCache: { tables: ['lootbox_tiers', 'lootboxes'] }, cacheSeconds: 10 },
    },
    async (request) => {
      const at = now();
      const { creator, collection } = request.query;
      const lootbox = foundLootbox(await findLootboxWithTiers(db, { creator, collection }, at), {
        creator,
        collection,
      });
      // The status moves with the clock at mint start and end: a cached answer lasts until then.
      request.cacheUntil = lootboxStatusChangesAt(lootbox, at) ?? undefined;
      return { data: lootbox };
    },
  );

  app.get(
    '/lootbox-revenue',
    {
      schema: {
        tags,
        summary: "A lootbox's revenue per payment coin over 24h, 7d, 30d or all time",
        querystring: RevenueQuery,
        response: { 200: One(Revenue), ...ERRORS },
      },
      config: { readCache: { tables: ['lootbox_purchases', 'lootbox_revenue_days', 'lootboxes'] } },
    },
    async (request) => {
      const { creator, collection, timeframe } = request.query;
      // The window ends at this instant, so a purchase at exactly now (or exactly a window ago) is
      // counted. The answer is kept until the next whole second or the next write, whichever comes
      // first: a purchase can leave the window at most one second late, never join it late.
      const at = now();
      request.cacheUntil = Math.floor(at.getTime() / 1000) * 1000 + 1000;
      const revenue = await lootboxRevenue(db, { creator, collection }, timeframe, at);
      return { data: foundLootbox(revenue, { creator, collection }) };
    },
  );

  app.get(
    '/rarities-by-lootbox',
    {
      schema: {
        tags,
        summary: "A lootbox's tier table: weights, probabilities, supply and minted counts",
        querystring: LootboxIdQuery,
        response: { 200: One(LootboxRarities), ...ERRORS },
      },
      config: { readCache: { tables: ['lootbox_tiers', 'lootboxes'] }, cacheSeconds: 10 },
    },
    async (request) => {
      const key = { lootboxId: request.query.lootboxId };
      const lootbox = foundLootbox(await findLootboxWithTiers(db, key), key);
      return {
        data: {
          lootboxId: lootbox.lootboxId,
          collectionId: lootbox.collectionId,
          maxSupply: lootbox.maxSupply,
          minted: lootbox.minted,
          tiers: lootbox.tiers,
        },
      };
    },
  );

  app.get(
    '/rarities-by-collection',
    {
      schema: {
        tags,
        summary: "OpenRarity rank and score of a collection's tokens, rarest first",
        querystring: RaritiesByCollectionQuery,
        response: { 200: ListOf(TokenRarity), ...ERRORS },
      },
      config: {
        readCache: {
          tables: ['collections', 'token_rarity', 'tokens'],
          collection: { tables: ['collections', 'token_rarity', 'tokens'] },
        },
        cacheSeconds: 30,
      },
    },
    async (request) => {
      const collections = { creator: request.query.creator, name: request.query.collection };
      return inKnownCollections(
        db,
        collections,
        await raritiesOfCollections(db, collections, pageOf(request)),
      );
    },
  );
}
