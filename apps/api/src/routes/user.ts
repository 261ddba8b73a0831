import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Address, ERRORS, InventoryHistory, One } from '@mdq/contracts';
import { inventoryHistory, inventoryHistoryChangesAt } from '@mdq/db/read';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { RouteDeps } from './deps';

const InventoryQuery = Type.Object({
  address: Address('wallet address'),
  range: Type.Union([Type.Literal('24h'), Type.Literal('7d'), Type.Literal('30d'), Type.Literal('all')], {
    default: '24h',
    description: 'buckets: hourly (24h), 6-hourly (7d), daily (30d), weekly (all)',
  }),
});

export async function userRoutes(scope: FastifyInstance, { readDb: db, now }: RouteDeps): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/user/inventory-history-data',
    {
      schema: {
        tags: ['user'],
        summary: "A wallet's token count and floor value over 24h, 7d, 30d or all time",
        description:
          "Reads the worker's inventory snapshots (last snapshot of each bucket). A wallet with no snapshot yet gets one point computed now from its ownerships and live floors.",
        querystring: InventoryQuery,
        response: { 200: One(InventoryHistory), ...ERRORS },
      },
      // Keyed on the snapshots alone, which the worker writes once an hour: a series read from them
      // stands while the chain moves. The live point of a wallet with no snapshot reads its
      // ownerships and listings and the floors of every collection it holds, which any block can
      // move (they retired every wallet's answer, 21% hits under the live bench): it is not kept.
      config: { readCache: { tables: ['user_inventory_snapshots'] } },
    },
    async (request) => {
      const at = now();
      const { address, range } = request.query;
      const data = await inventoryHistory(db, address, range, at);
      if (data.points.some((p) => p.live)) request.cacheSkip = true;
      // Its buckets move with the clock: the answer is kept until the next instant it can change.
      else request.cacheUntil = await inventoryHistoryChangesAt(db, address, data, at);
      return { data };
    },
  );
}
