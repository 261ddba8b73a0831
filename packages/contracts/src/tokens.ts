import { type Static, Type } from 'typebox';
import { IsoTime, Lootbox, Nullable, StringEnum, ThumbnailUrl, U64Out } from './common';

export const TokenBalance = Type.Object({
  tokenId: Type.String(),
  tokenName: Nullable(Type.String()),
  tokenStandard: Type.String(),
  propertyVersion: U64Out,
  creator: Nullable(Type.String()),
  collection: Nullable(Type.String()),
  collectionId: Nullable(Type.String()),
  tokenUri: Nullable(Type.String()),
  thumbnailUrl: ThumbnailUrl,
  owner: Type.String(),
  amount: U64Out,
  isSoulbound: Type.Boolean(),
  listed: Type.Boolean({
    description: 'held for the wallet by its active listing (escrow or listing object)',
  }),
  version: Type.Integer(),
  serviceInfo: Type.Optional(
    Type.Object({
      lootboxId: Nullable(Type.Integer()),
      rarityTier: Nullable(Type.String()),
      rarityRank: Nullable(Type.Integer()),
      listing: Nullable(
        Type.Object({
          listingId: Type.String(),
          marketplace: Type.String(),
          price: U64Out,
          coinType: Nullable(Type.String()),
          quantity: U64Out,
          listedAt: Nullable(IsoTime),
        }),
      ),
    }),
  ),
});
export type TokenBalance = Static<typeof TokenBalance>;

export const CollectionFacts = Type.Object({
  collectionId: Type.String(),
  tokenStandard: Type.String(),
  creator: Type.String(),
  collection: Type.String(),
  collectionUrl: Nullable(Type.String()),
  thumbnailUrl: ThumbnailUrl,
  lootboxId: Nullable(Type.Integer()),
  description: Nullable(Type.String()),
  currentSupply: Type.String({ description: 'live (unburned) tokens, decimal string' }),
  maxSupply: Nullable(U64Out),
  totalMinted: Type.String({ description: 'tokens ever minted, burned included, decimal string' }),
  owners: Type.Integer({ description: 'distinct holders; a listed token counts for its seller' }),
  listedCount: Type.Integer(),
  floorPrice: Nullable(U64Out),
  volume: U64Out,
  sales: Type.Integer(),
  createdAt: Nullable(IsoTime),
  version: Type.Integer(),
  lootbox: Nullable(Lootbox),
});
export type CollectionFacts = Static<typeof CollectionFacts>;

export const TokenTraits = Type.Object({
  tokenId: Type.String(),
  tokenName: Type.String(),
  tokenStandard: Type.String(),
  propertyVersion: U64Out,
  creator: Nullable(Type.String()),
  collection: Nullable(Type.String()),
  collectionId: Type.String(),
  collectionSize: Type.Integer({ description: 'live tokens in the collection' }),
  rarityRank: Nullable(Type.Integer()),
  rarityScore: Nullable(Type.Number()),
  traits: Type.Array(
    Type.Object({
      traitType: Type.String(),
      value: Type.String(),
      source: StringEnum(['chain', 'document'], {
        description:
          'the on-chain property map, or the off-chain document (the chain wins where both name a trait)',
      }),
      count: Type.Integer({ description: 'tokens of the collection with this value' }),
      share: Type.Number({ description: 'count / collectionSize, 0..1' }),
    }),
  ),
});
export type TokenTraits = Static<typeof TokenTraits>;
