import { type Static, Type } from 'typebox';
import { Nullable, ThumbnailUrl } from './common';

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
