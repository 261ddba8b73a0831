import { type Static, Type } from 'typebox';
import { IsoTime, Lootbox, Nullable, StringEnum, U64Out } from './common';

const TIMEFRAME_DESCRIPTION = 'revenue window ending now';

/** A revenue window in the lootbox-revenue query (a union of literals: Ajv coerces and checks it). */
export const Timeframe = Type.Union(
  [Type.Literal('24h'), Type.Literal('7d'), Type.Literal('30d'), Type.Literal('all')],
  { description: TIMEFRAME_DESCRIPTION },
);
export type Timeframe = Static<typeof Timeframe>;

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
  timeframe: StringEnum(['24h', '7d', '30d', 'all'], { description: TIMEFRAME_DESCRIPTION }),
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
