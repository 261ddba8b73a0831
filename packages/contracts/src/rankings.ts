import { type Static, Type } from 'typebox';
import { IsoTime, Lootbox, Nullable, ThumbnailUrl } from './common';

export const RankedCollection = Type.Object({
  rank: Type.Integer(),
  collectionId: Nullable(Type.String()),
  collection: Nullable(Type.String()),
  creator: Nullable(Type.String()),
  collectionUrl: Nullable(Type.String()),
  thumbnailUrl: ThumbnailUrl,
  lootboxId: Nullable(Type.Integer()),
  score: Type.Number(),
  metrics: Type.Record(
    Type.String(),
    Type.Unsafe<string | number | null>({ type: ['string', 'number', 'null'] }),
  ),
  computedAt: IsoTime,
});
export type RankedCollection = Static<typeof RankedCollection>;

export const RankedLootbox = Type.Object({ rank: Type.Integer(), ...Lootbox.properties });
export type RankedLootbox = Static<typeof RankedLootbox>;
