import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Address, ERRORS, LootboxDetail, Name, One, Revenue, Timeframe } from '@mdq/contracts';
import { findLootboxWithTiers, lootboxRevenue, lootboxStatusChangesAt } from '@mdq/db/read';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { foundLootbox, LOOTBOX_WITH_TIERS_TABLES } from '../lib/resolve';
import type { RouteDeps } from './deps';

const LootboxQuery = Type.Object({
  creator: Address('creator address of the lootbox'),
  collection: Name('collection name of the lootbox'),
});

const RevenueQuery = Type.Object({
  creator: Address('creator address of the lootbox'),
  collection: Name('collection name of the lootbox'),
  timeframe: Timeframe,
});

const tags = ['lootbox'];

/** What lootboxRevenue reads, each by the lootbox's id (its row by its pair). */
const REVENUE_TABLES = ['lootbox_purchases', 'lootbox_revenue_days', 'lootboxes'] as const;

/** `/lootbox` and `/lootbox-revenue`: a lootbox with its status and tiers, its revenue over a window. */
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
      config: {
        readCache: { tables: LOOTBOX_WITH_TIERS_TABLES, lootbox: { tables: LOOTBOX_WITH_TIERS_TABLES } },
        cacheSeconds: 10,
      },
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
      config: { readCache: { tables: REVENUE_TABLES, lootbox: { tables: REVENUE_TABLES } } },
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
}
