import { Type } from 'typebox';
import { Address, Name } from './common';
import { EXPORT_DATASET_NAMES } from './export-datasets';

const version = (description: string) =>
  Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description }));

export const ExportParams = Type.Object({
  dataset: Type.Union(
    EXPORT_DATASET_NAMES.map((name) => Type.Literal(name)),
    { description: 'what to export' },
  ),
});

export const ExportQuery = Type.Object({
  format: Type.Union([Type.Literal('ndjson'), Type.Literal('csv')], {
    default: 'ndjson',
    description: 'ndjson (one JSON object per line) or csv (header row of camelCase field names)',
  }),
  collectionId: Type.Optional(Address('collection id (or creator + collection)')),
  creator: Type.Optional(Address('creator address of the collection (with collection)')),
  collection: Type.Optional(Name('collection name (with creator)')),
  wallet: Type.Optional(
    Address('rows of this wallet (seller / buyer / sender / receiver / owner / creator)'),
  ),
  fromVersion: version('first chain version, inclusive'),
  toVersion: version('last chain version, inclusive'),
  after: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1024,
      description: "resume: the trailer's `next`, or the cursor of the last row received",
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'at most this many rows' }),
  ),
});
