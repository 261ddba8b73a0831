import { Type } from 'typebox';
import { Address, IsoTime, Name, Nullable } from './common';

export const UriCacheInput = Type.Object({
  collectionName: Name('name of the collection to process'),
  creatorAddress: Type.Optional(Address('creator address (needed when several creators use the name)')),
});

export const UriCacheState = Type.Object({
  collectionId: Type.String(),
  collection: Type.String(),
  creator: Type.String(),
  metadataUri: Nullable(Type.String()),
  imageUrl: Nullable(Type.String()),
  contentType: Nullable(Type.String()),
  status: Type.Union([Type.Literal('ok'), Type.Literal('error'), Type.Literal('pending')]),
  error: Nullable(Type.String()),
  attempts: Type.Integer(),
  fetchedAt: Nullable(IsoTime),
  expiresAt: Nullable(IsoTime),
});

export const ValidateMetadataQuery = Type.Object({
  kind: Type.Union([Type.Literal('token'), Type.Literal('collection')], {
    default: 'token',
    description: 'which metadata format the body follows',
  }),
});

/** Any JSON object: the validator, not Ajv, reports what is wrong with it (with JSON paths). */
export const MetadataDocument = Type.Record(Type.String(), Type.Unknown(), {
  description: 'a token or collection metadata document',
});

const Issue = Type.Object({ path: Type.String(), message: Type.String() });

export const MetadataReport = Type.Object({
  valid: Type.Boolean(),
  errors: Type.Array(Issue),
  warnings: Type.Array(Issue),
});
