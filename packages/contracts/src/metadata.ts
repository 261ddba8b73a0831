import { Type } from 'typebox';
import { Address, Nullable } from './common';

export const RefreshMetadataInput = Type.Union(
  [
    Type.Object(
      { tokenId: Address("token id: refresh this token's document") },
      { additionalProperties: false },
    ),
    Type.Object(
      { collectionId: Address("collection id: refresh the collection's document and every token's") },
      { additionalProperties: false },
    ),
  ],
  { description: 'either `tokenId` or `collectionId`' },
);

export const RefreshMetadataAccepted = Type.Object({
  scope: Type.Union([Type.Literal('token'), Type.Literal('collection')]),
  collectionId: Type.String(),
  tokenId: Nullable(Type.String()),
  marked: Type.Integer({ description: 'stored documents made due now (ones never fetched are due already)' }),
  queued: Type.Boolean({
    description:
      "the collection's crawl was queued now; false: the worker's sweep picks it up (within a minute)",
  }),
});
