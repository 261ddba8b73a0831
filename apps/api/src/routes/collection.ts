import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  Address,
  CollectionStats,
  ERRORS,
  HistoryBucket,
  IsoTime,
  LongAddress,
  LootboxId,
  Name,
  Nullable,
  Trader,
  TraitFloor,
} from '@mdq/contracts';
import { type Db, onOneConnection, readFreshness } from '@mdq/db';
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
import { type TSchema, Type } from 'typebox';
import { collectionIdsOfPairOrLootbox } from '../lib/resolve';
import { ApiError } from '../plugins/errors';
import {
  HISTORY_EXAMPLE,
  STATS_EXAMPLE,
  TOP_TRADERS_EXAMPLE,
  TRAIT_FLOORS_EXAMPLE,
} from './collection-examples';
import type { RouteDeps } from './deps';

/** Which collection: collectionId, or creator + collection, or lootboxId. */
const CollectionSelector = {
  collectionId: Type.Optional(Address('collection id (v2 collection address or v1 collection id)')),
  creator: Type.Optional(Address('creator address of the collection (with collection)')),
  collection: Type.Optional(Name('collection name (with creator)')),
  lootboxId: Type.Optional(LootboxId('the lootbox of the collection')),
};

const IncludeFlagged = Type.Boolean({
  default: false,
  description: 'count wash-flagged sales too (raw figures); by default they are left out',
});

/** Literal unions (not Type.Enum) so that Ajv coerces and checks the query string. */
const WindowParam = (fallback: string) =>
  Type.Union(
    [Type.Literal('1h'), Type.Literal('24h'), Type.Literal('7d'), Type.Literal('30d'), Type.Literal('all')],
    {
      default: fallback,
      description: 'trailing window ending now: 1h, 24h, 7d, 30d or all',
    },
  );

const StatsQuery = Type.Object({
  ...CollectionSelector,
  window: WindowParam('24h'),
  includeFlagged: IncludeFlagged,
});

const HistoryQuery = Type.Object({
  ...CollectionSelector,
  interval: Type.Union([Type.Literal('1h'), Type.Literal('1d')], {
    default: '1d',
    description: 'bucket size',
  }),
  from: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'first bucket holds this time (default: 30 buckets back)',
    }),
  ),
  to: Type.Optional(
    Type.String({ format: 'date-time', description: 'last bucket holds this time (default: now)' }),
  ),
  includeFlagged: IncludeFlagged,
});

const TraitFloorsQuery = Type.Object({ ...CollectionSelector, includeFlagged: IncludeFlagged });

const TopTradersQuery = Type.Object({
  ...CollectionSelector,
  window: WindowParam('7d'),
  limit: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 10,
    description: 'traders per side, at most 100',
  }),
  includeFlagged: IncludeFlagged,
});

const Freshness = Type.Object({
  indexedVersion: Nullable(Type.Integer({ description: 'highest chain version the answer reflects' })),
  indexedAt: Nullable(IsoTime),
});

/** Analytics answers carry how fresh they are next to the data; `example` goes into the OpenAPI document. */
export const Fresh = <T extends TSchema>(item: T, example: unknown) =>
  Type.Object({ data: item, freshness: Freshness }, { examples: [example] });

export const CollectionHistory = Type.Object({
  collectionId: LongAddress,
  interval: Type.String(),
  buckets: Type.Array(HistoryBucket),
});

export const TraitFloors = Type.Object({ collectionId: LongAddress, traits: Type.Array(TraitFloor) });

export const TopTraders = Type.Object({
  collectionId: LongAddress,
  window: Type.String(),
  buyers: Type.Array(Trader),
  sellers: Type.Array(Trader),
});

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

/*
 * The response cache (plugins/response-cache.ts) keeps each route's answers per URL under the write
 * counters of every table its statements read, the collection's lookup included (collections, and
 * lootboxes for lootboxId). `indexer_checkpoints` is left out on purpose, though the bodies carry
 * `freshness`: on a live chain it moves with every block and would retire every analytics answer
 * each block. The body's freshness is the reading the answer was computed (and keyed) at, while a
 * hit's `x-mdq-indexed-version` header is the current reading: a hit at a later version is still
 * true, because none of the tables its figures read has changed since.
 */
/**
 * The collection lookup: collectionId, creator + collection, or lootboxId (resolve.ts), and the
 * collection's name and creator in the body: its identity, not its counts.
 */
const SELECTOR_TABLES = ['collections:identity', 'lootboxes'] as const;
/**
 * Sales, live floor and listed count, holders and the ten largest holdings (kept per holder:
 * ownerships + listing sellers, burned tokens left out), best collection offer, supply (the live
 * tokens kept per collection), and the floor at the window's start (the recorded floor changes,
 * else rebuilt from the listings' events, burns left out).
 */
const STATS_TABLES = [
  ...SELECTOR_TABLES,
  'collection_floor_changes',
  'collection_holdings',
  'collection_offers',
  'collection_trait_totals',
  'listings',
  'marketplace_activities',
  'token_activities',
  'tokens',
] as const;
/** The buckets' sales and the hourly snapshots' floors. */
const HISTORY_TABLES = [...SELECTOR_TABLES, 'collection_snapshots', 'marketplace_activities'] as const;
/** The kept value counts, live total and floors per value, each value's last sale. */
const TRAIT_FLOORS_TABLES = [
  ...SELECTOR_TABLES,
  'collection_trait_totals',
  'marketplace_activities',
  'token_attributes',
  'trait_value_counts',
  'trait_value_floors',
] as const;
/** The window's sales. */
const TOP_TRADERS_TABLES = [...SELECTOR_TABLES, 'marketplace_activities'] as const;
/**
 * History, top traders, stats and trait floors read every table by the collection's id (or the pair's lookup):
 * asked by id or pair they key on that collection's counters, and a sale elsewhere leaves them
 * cached. (A token read by its id is one of the collection's: the statements say so, `t.collection_id`.)
 */
const BY_COLLECTION = {
  tables: ['collections:identity', 'lootboxes', 'marketplace_activities'],
  byId: true,
} as const;

/**
 * The end of the second holding `at`: how long a trailing window ending at `at` is kept. A sale
 * leaves the window at most a second late; a newly indexed one is a write (a new key), so it never
 * joins late.
 */
const endOfSecond = (at: Date) => Math.floor(at.getTime() / 1000) * 1000 + 1000;

type CollectionQuery = Parameters<typeof collectionOf>[1];

/**
 * An analytics answer and its freshness: `run` gets the collection `query` names (null from it:
 * no such collection, a 404). Its statements run on one pooled connection, one after another. Each
 * answer reads several figures (collection-stats in five statements, nine before); sent at once on the pool, a
 * request held as many connections as it had statements, so a hundred clients of the stats queued
 * several hundred statements, which the load shedding's queue cap (`MDQ_SHED_DB_WAITING`) refused
 * as an overload. One connection per answer shares the pool between requests instead of statements;
 * it is one of the pool's own (onOneConnection), so the statements planned once run prepared there.
 */
async function analyticsAnswer<T>(
  db: Db,
  request: FastifyRequest,
  query: CollectionQuery,
  run: (connection: Db, collectionId: string) => Promise<T | null>,
): Promise<{ data: T; freshness: Awaited<ReturnType<typeof freshnessOf>> }> {
  const [data, freshness] = await Promise.all([
    onOneConnection(db, async (connection) => {
      const id = await collectionOf(connection, query);
      const answer = await run(connection, id);
      if (answer === null) throw notFound(id);
      return answer;
    }),
    freshnessOf(db, request),
  ]);
  return { data, freshness };
}

/** `run`'s answer when the collection exists, else null (the analytics routes' 404). */
async function ifExists<T>(connection: Db, collectionId: string, run: () => Promise<T>): Promise<T | null> {
  return (await collectionExists(connection, collectionId)) ? run() : null;
}

function notFound(collectionId: string): ApiError {
  return new ApiError(404, 'COLLECTION_NOT_FOUND', `no collection ${collectionId}`);
}

/** `/collection-*`: a collection's windowed stats, chart history, trait floors, top traders (the analytics tag). */
export async function collectionRoutes(
  scope: FastifyInstance,
  { readDb: db, now }: RouteDeps,
): Promise<void> {
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
      config: { readCache: { tables: STATS_TABLES, collection: { tables: STATS_TABLES, byId: true } } },
    },
    async (request) => {
      const { window, includeFlagged } = request.query;
      // The window ends at this instant (the body's windowEnd); kept until the second ends.
      const at = now();
      request.cacheUntil = endOfSecond(at);
      return analyticsAnswer(db, request, request.query, (connection, id) =>
        collectionStats(connection, id, window, at, includeFlagged),
      );
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
      config: {
        readCache: {
          tables: HISTORY_TABLES,
          collection: { ...BY_COLLECTION, tables: [...BY_COLLECTION.tables, 'collection_snapshots'] },
        },
      },
    },
    async (request) => {
      const { interval, includeFlagged } = request.query;
      const ms = HISTORY_INTERVALS[interval];
      const to = request.query.to === undefined ? now() : new Date(request.query.to);
      // The default range ends in the bucket holding now: the same buckets until that bucket ends.
      // An explicit `to` fixes the range, which then moves with the stored data alone.
      if (request.query.to === undefined) request.cacheUntil = bucketStart(to, interval).getTime() + ms;
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
      return analyticsAnswer(db, request, request.query, (connection, id) =>
        ifExists(connection, id, async () => ({
          collectionId: id,
          interval,
          buckets: await collectionHistory(connection, id, interval, from, to, includeFlagged),
        })),
      );
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
      config: {
        readCache: { tables: TRAIT_FLOORS_TABLES, collection: { tables: TRAIT_FLOORS_TABLES, byId: true } },
      },
    },
    async (request) => {
      return analyticsAnswer(db, request, request.query, (connection, id) =>
        ifExists(connection, id, async () => ({
          collectionId: id,
          traits: await collectionTraitFloors(connection, id, request.query.includeFlagged),
        })),
      );
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
      config: { readCache: { tables: TOP_TRADERS_TABLES, collection: BY_COLLECTION } },
    },
    async (request) => {
      const { window, limit, includeFlagged } = request.query;
      // The window ends at this instant; kept until the second ends.
      const at = now();
      request.cacheUntil = endOfSecond(at);
      return analyticsAnswer(db, request, request.query, (connection, id) =>
        ifExists(connection, id, async () => ({
          collectionId: id,
          window,
          ...(await collectionTopTraders(connection, id, windowStart(window, at), at, includeFlagged, limit)),
        })),
      );
    },
  );
}
