import { type Static, Type } from 'typebox';
import { IsoTime, LongAddress, Nullable, U64Out } from './common';

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

export const Trader = Type.Object({ address: LongAddress, volume: U64Out, trades: Type.Integer() });
export type Trader = Static<typeof Trader>;
