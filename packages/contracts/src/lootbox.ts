import { type Static, Type } from 'typebox';
import { Address, IsoTime, Lootbox, Name, Nullable, pageQuery, U64Out } from './common';

export const LootboxQuery = Type.Object({
  creator: Address('creator address of the lootbox'),
  collection: Name('collection name of the lootbox'),
});

export const Timeframe = Type.Union(
  [Type.Literal('24h'), Type.Literal('7d'), Type.Literal('30d'), Type.Literal('all')],
  {
    description: 'revenue window ending now',
  },
);
export type Timeframe = Static<typeof Timeframe>;

export const RevenueQuery = Type.Object({
  creator: Address('creator address of the lootbox'),
  collection: Name('collection name of the lootbox'),
  timeframe: Timeframe,
});

export const LootboxIdQuery = Type.Object({
  lootboxId: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'lootbox id' }),
});

export const RaritiesByCollectionQuery = Type.Object({
  creator: Address('creator address of the collection'),
  collection: Name('collection name'),
  ...pageQuery(100),
});

export const LootboxTier = Type.Object({
  name: Type.String(),
  position: Type.Integer(),
  weight: U64Out,
  probability: Type.Number({ description: 'weight / sum of weights' }),
  maxSupply: U64Out,
  minted: U64Out,
});
export type LootboxTier = Static<typeof LootboxTier>;

export const LootboxDetail = Type.Object({ ...Lootbox.properties, tiers: Type.Array(LootboxTier) });
export type LootboxDetail = Static<typeof LootboxDetail>;

export const Revenue = Type.Object({
  lootboxId: Type.Integer(),
  timeframe: Timeframe,
  from: Nullable(IsoTime),
  to: IsoTime,
  revenue: Type.Array(
    Type.Object({
      coinType: Type.String(),
      amount: U64Out,
      purchases: Type.Integer(),
      quantity: U64Out,
    }),
  ),
});
export type Revenue = Static<typeof Revenue>;

export const LootboxRarities = Type.Object({
  lootboxId: Type.Integer(),
  collectionId: Type.String(),
  maxSupply: U64Out,
  minted: U64Out,
  tiers: Type.Array(LootboxTier),
});

export const TokenRarity = Type.Object({
  tokenId: Type.String(),
  tokenName: Nullable(Type.String()),
  collectionId: Type.String(),
  rank: Type.Integer({ description: '1 = rarest; equal scores share a rank' }),
  score: Type.Number({ description: 'OpenRarity score' }),
  traitCount: Type.Integer(),
  computedAt: IsoTime,
});
export type TokenRarity = Static<typeof TokenRarity>;
