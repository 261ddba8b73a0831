import { type Static, Type } from 'typebox';
import { IsoTime, Lootbox, Nullable, pageQuery, ThumbnailUrl } from './common';

/**
 * The spec allows 1, 10 or 100. An integer enum (not Type.Enum, which emits no `type`) so that Ajv
 * coerces the query string before checking membership.
 */
export const RankingQuery = Type.Object({
  page: pageQuery(10).page,
  cursor: pageQuery(10).cursor,
  limit: Type.Unsafe<1 | 10 | 100>({
    type: 'integer',
    enum: [1, 10, 100],
    default: 10,
    description: '1, 10 or 100',
  }),
});

export const CollectionRankingQuery = Type.Object({
  ...RankingQuery.properties,
  includeFlagged: Type.Boolean({
    default: false,
    description: 'rank with wash-flagged sales counted (by default they are left out)',
  }),
});

export const RankedCollection = Type.Object({
  rank: Type.Integer(),
  collectionId: Nullable(Type.String()),
  collection: Nullable(Type.String()),
  creator: Nullable(Type.String()),
  collectionUrl: Nullable(Type.String()),
  thumbnailUrl: ThumbnailUrl,
  lootboxId: Nullable(Type.Integer()),
  score: Type.Number(),
  metrics: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Null()])),
  computedAt: IsoTime,
});
export type RankedCollection = Static<typeof RankedCollection>;

export const RankedLootbox = Type.Object({ rank: Type.Integer(), ...Lootbox.properties });
export type RankedLootbox = Static<typeof RankedLootbox>;
