import { type Static, type TSchema, Type } from 'typebox';
import { Address, IsoTime, LongAddress, Name, Nullable, U64Out } from './common';

/** Which collection: collectionId, or creator + collection, or lootboxId. */
const CollectionSelector = {
  collectionId: Type.Optional(Address('collection id (v2 collection address or v1 collection id)')),
  creator: Type.Optional(Address('creator address of the collection (with collection)')),
  collection: Type.Optional(Name('collection name (with creator)')),
  lootboxId: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'the lootbox of the collection',
    }),
  ),
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

export const StatsQuery = Type.Object({
  ...CollectionSelector,
  window: WindowParam('24h'),
  includeFlagged: IncludeFlagged,
});

export const HistoryQuery = Type.Object({
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

export const TraitFloorsQuery = Type.Object({ ...CollectionSelector, includeFlagged: IncludeFlagged });

export const TopTradersQuery = Type.Object({
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

const Ratio = Nullable(Type.Number());

export const CollectionStats = Type.Object({
  collectionId: LongAddress,
  collection: Type.String(),
  creator: LongAddress,
  window: Type.String(),
  windowStart: Nullable(IsoTime),
  windowEnd: IsoTime,
  includeFlagged: Type.Boolean(),
  volume: U64Out,
  sales: Type.Integer(),
  averageSale: Nullable(U64Out),
  medianSale: Nullable(U64Out),
  uniqueBuyers: Type.Integer(),
  uniqueSellers: Type.Integer(),
  flaggedSales: Type.Integer(),
  flaggedVolume: U64Out,
  floor: Nullable(U64Out),
  floorAtWindowStart: Nullable(U64Out),
  floorChange: Ratio,
  bestCollectionOffer: Nullable(U64Out),
  listedCount: Type.Integer(),
  listedShare: Ratio,
  holders: Type.Integer(),
  top10HoldersShare: Ratio,
  supply: U64Out,
  minted: U64Out,
  burned: U64Out,
});
export type CollectionStats = Static<typeof CollectionStats>;

export const HistoryBucket = Type.Object({
  start: IsoTime,
  open: Nullable(U64Out),
  high: Nullable(U64Out),
  low: Nullable(U64Out),
  close: Nullable(U64Out),
  volume: U64Out,
  sales: Type.Integer(),
  floor: Nullable(U64Out),
});
export type HistoryBucket = Static<typeof HistoryBucket>;

export const CollectionHistory = Type.Object({
  collectionId: LongAddress,
  interval: Type.String(),
  buckets: Type.Array(HistoryBucket),
});

export const TraitFloor = Type.Object({
  traitType: Type.String(),
  value: Type.String(),
  count: Type.Integer(),
  share: Ratio,
  floor: Nullable(U64Out),
  lastSalePrice: Nullable(U64Out),
  lastSaleAt: Nullable(IsoTime),
});
export type TraitFloor = Static<typeof TraitFloor>;

export const TraitFloors = Type.Object({ collectionId: LongAddress, traits: Type.Array(TraitFloor) });

export const Trader = Type.Object({ address: LongAddress, volume: U64Out, trades: Type.Integer() });
export type Trader = Static<typeof Trader>;

export const TopTraders = Type.Object({
  collectionId: LongAddress,
  window: Type.String(),
  buyers: Type.Array(Trader),
  sellers: Type.Array(Trader),
});
