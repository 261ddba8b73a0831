import { type Static, Type } from 'typebox';
import {
  Address,
  Bid,
  IsoTime,
  ListingCard,
  Name,
  Nullable,
  pageQuery,
  ThumbnailUrl,
  TokenSummary,
  U64Out,
} from './common';

export const TokenIdPageQuery = Type.Object({
  tokenId: Address('token id (token data id or token object address)'),
  ...pageQuery(20),
});

export const ListingCardQuery = Type.Object({
  tokenId: Address('token id'),
  tokenStandard: Type.Union([Type.Literal('v1'), Type.Literal('v2')], { description: 'token standard' }),
});

export const PairOrLootboxQuery = Type.Object({
  creator: Type.Optional(Address('creator address of the collection (with collection)')),
  collection: Type.Optional(Name('collection name (with creator)')),
  lootboxId: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'alternative to creator + collection',
    }),
  ),
  ...pageQuery(20),
});

export const SearchQuery = Type.Object({
  text: Type.String({ minLength: 1, maxLength: 100, description: 'search text (typo-tolerant)' }),
  limit: Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'hits per kind' }),
});

export const SearchResult = Type.Object({
  collections: Type.Array(
    Type.Object({
      collectionId: Type.String(),
      collection: Type.String(),
      creator: Type.String(),
      collectionUrl: Nullable(Type.String()),
      thumbnailUrl: ThumbnailUrl,
      tokenStandard: Type.String(),
      score: Type.Number({ description: 'trigram similarity 0..1' }),
    }),
  ),
  tokens: Type.Array(
    Type.Object({
      tokenId: Type.String(),
      tokenName: Type.String(),
      tokenStandard: Type.String(),
      collection: Nullable(Type.String()),
      collectionId: Type.String(),
      creator: Nullable(Type.String()),
      tokenUri: Nullable(Type.String()),
      thumbnailUrl: ThumbnailUrl,
      score: Type.Number(),
    }),
  ),
});
export type SearchResult = Static<typeof SearchResult>;

const filters = {
  search: Type.Optional(
    Type.String({ maxLength: 100, description: 'token or collection name (contains / similar)' }),
  ),
  minPrice: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,20}$', description: 'minimum price, smallest unit (u64 string)' }),
  ),
  maxPrice: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,20}$', description: 'maximum price, smallest unit (u64 string)' }),
  ),
  coinType: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'payment coin type' })),
  collectionName: Type.Optional(Name('collection name')),
  creatorAddress: Type.Optional(Address('creator address')),
  collectionUrl: Type.Optional(Type.String({ maxLength: 2048, description: 'collection URI' })),
};

export const ListingCardsQuery = Type.Object({
  ...filters,
  byPopular: Type.Boolean({
    default: false,
    description: "sort by the collection's 7-day trending rank, then newest",
  }),
  ...pageQuery(20),
});

export const TotalListingCardsQuery = Type.Object(filters);

export const UserPageQuery = Type.Object({ address: Address('wallet address'), ...pageQuery(20) });

const Sale = Type.Object({
  price: U64Out,
  coinType: Nullable(Type.String()),
  seller: Nullable(Type.String()),
  buyer: Nullable(Type.String()),
  timestamp: IsoTime,
  version: Type.Integer(),
});

export const ListingCardDetail = Type.Object({
  token: TokenSummary,
  /** The cheapest active listing, else the most recent closed one. */
  listing: Nullable(ListingCard),
  status: Nullable(Type.String({ description: 'active, sold, cancelled; null when never listed' })),
  owners: Type.Array(Type.Object({ owner: Type.String(), amount: U64Out })),
  floorPrice: Nullable(U64Out),
  bestBid: Nullable(Bid),
  lastSale: Nullable(Sale),
  priceHistory: Type.Array(Sale),
  rarityRank: Nullable(Type.Integer()),
});
