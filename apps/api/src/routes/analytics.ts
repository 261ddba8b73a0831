import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  CollectionHistory,
  CollectionStats,
  ERRORS,
  Fresh,
  HISTORY_EXAMPLE,
  HistoryQuery,
  STATS_EXAMPLE,
  StatsQuery,
  TOP_TRADERS_EXAMPLE,
  TopTraders,
  TopTradersQuery,
  TRAIT_FLOORS_EXAMPLE,
  TraitFloors,
  TraitFloorsQuery,
} from '@mdq/contracts';
import { type Db, readFreshness } from '@mdq/db';
import {
  bucketStart,
  collectionExists,
  collectionHistory,
  collectionStats,
  collectionTopTraders,
  collectionTraitFloors,
  HISTORY_INTERVALS,
  windowStart,
} from '@mdq/db/read';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectionIdsOfPairOrLootbox } from '../lib/resolve';
import { ApiError } from '../plugins/errors';
import type { RouteDeps } from './deps';

const tags = ['analytics'];
/** A history answer holds at most this many buckets (a 1h chart of ~83 days, a 1d chart of ~5 years). */
const MAX_BUCKETS = 2000;
const DEFAULT_BUCKETS = 30;

/** The collection a query names: collectionId, or creator + collection, or lootboxId (404 when unknown). */
async function collectionOf(
  db: Db,
  query: {
    collectionId?: string | undefined;
    creator?: string | undefined;
    collection?: string | undefined;
    lootboxId?: number | undefined;
  },
): Promise<string> {
  if (query.collectionId !== undefined) return query.collectionId;
  const ids = await collectionIdsOfPairOrLootbox(db, query);
  return ids[0] as string;
}

/**
 * The body's freshness: what the freshness hook read before the handler ran (so it never claims a
 * version newer than the data), or a fresh read when the hook could not get one.
 */
async function freshnessOf(
  db: Db,
  request: FastifyRequest,
): Promise<{ indexedVersion: number | null; indexedAt: string | null }> {
  const fresh = request.readState?.freshness ?? (await readFreshness(db));
  return { indexedVersion: fresh.indexedVersion, indexedAt: fresh.indexedAt?.toISOString() ?? null };
}

function notFound(collectionId: string): ApiError {
  return new ApiError(404, 'COLLECTION_NOT_FOUND', `no collection ${collectionId}`);
}

/** Collection analytics: windowed stats, chart history, trait floors, top traders (issue #17). */
export async function analyticsRoutes(scope: FastifyInstance, { readDb: db, now }: RouteDeps): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/collection-stats',
    {
      schema: {
        tags,
        summary:
          'Windowed collection statistics: volume, sales, floor and its change, offers, holders, supply',
        description:
          'Wash-flagged sales are left out of volume, sales, average, median and traders unless includeFlagged=true (flaggedSales / flaggedVolume always say how many there were).',
        querystring: StatsQuery,
        response: { 200: Fresh(CollectionStats, STATS_EXAMPLE), ...ERRORS },
      },
    },
    async (request) => {
      const { window, includeFlagged } = request.query;
      const id = await collectionOf(db, request.query);
      const [data, freshness] = await Promise.all([
        collectionStats(db, id, window, now(), includeFlagged),
        freshnessOf(db, request),
      ]);
      if (!data) throw notFound(id);
      return { data, freshness };
    },
  );

  app.get(
    '/collection-history',
    {
      schema: {
        tags,
        summary: 'Chart data per hour or day: sale OHLC, volume, sales and floor at the bucket end, gap-free',
        querystring: HistoryQuery,
        response: { 200: Fresh(CollectionHistory, HISTORY_EXAMPLE), ...ERRORS },
      },
    },
    async (request) => {
      const { interval, includeFlagged } = request.query;
      const ms = HISTORY_INTERVALS[interval];
      const to = request.query.to === undefined ? now() : new Date(request.query.to);
      const from =
        request.query.from === undefined
          ? new Date(bucketStart(to, interval).getTime() - (DEFAULT_BUCKETS - 1) * ms)
          : new Date(request.query.from);
      if (from.getTime() > to.getTime()) {
        throw new ApiError(400, 'BAD_RANGE', "'from' must not be after 'to'");
      }
      const buckets = (bucketStart(to, interval).getTime() - bucketStart(from, interval).getTime()) / ms + 1;
      if (buckets > MAX_BUCKETS) {
        throw new ApiError(400, 'BAD_RANGE', `'from'..'to' spans ${buckets} buckets; at most ${MAX_BUCKETS}`);
      }
      const id = await collectionOf(db, request.query);
      if (!(await collectionExists(db, id))) throw notFound(id);
      const [rows, freshness] = await Promise.all([
        collectionHistory(db, id, interval, from, to, includeFlagged),
        freshnessOf(db, request),
      ]);
      return { data: { collectionId: id, interval, buckets: rows }, freshness };
    },
  );

  app.get(
    '/collection-trait-floors',
    {
      schema: {
        tags,
        summary: 'Every trait value with its token count, share, live floor and last sale',
        querystring: TraitFloorsQuery,
        response: { 200: Fresh(TraitFloors, TRAIT_FLOORS_EXAMPLE), ...ERRORS },
      },
    },
    async (request) => {
      const id = await collectionOf(db, request.query);
      const [traits, freshness, exists] = await Promise.all([
        collectionTraitFloors(db, id, request.query.includeFlagged),
        freshnessOf(db, request),
        collectionExists(db, id),
      ]);
      if (!exists) throw notFound(id);
      return { data: { collectionId: id, traits }, freshness };
    },
  );

  app.get(
    '/collection-top-traders',
    {
      schema: {
        tags,
        summary: "The collection's top buyers and sellers by volume in a window",
        querystring: TopTradersQuery,
        response: { 200: Fresh(TopTraders, TOP_TRADERS_EXAMPLE), ...ERRORS },
      },
    },
    async (request) => {
      const { window, limit, includeFlagged } = request.query;
      const id = await collectionOf(db, request.query);
      const at = now();
      const [traders, freshness, exists] = await Promise.all([
        collectionTopTraders(db, id, windowStart(window, at), at, includeFlagged, limit),
        freshnessOf(db, request),
        collectionExists(db, id),
      ]);
      if (!exists) throw notFound(id);
      return { data: { collectionId: id, window, ...traders }, freshness };
    },
  );
}
