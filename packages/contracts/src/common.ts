import { ADDRESS_PATTERN } from '@mdq/chain/address';
import { type Static, type TSchema, type TUnsafe, Type } from 'typebox';

/** Short or mixed-case `0x…` forms are accepted here and normalized to long form by plugins/addresses. */
export const Address = (description: string) => Type.String({ pattern: ADDRESS_PATTERN, description });
export const LongAddress = Type.String({ description: 'AIP-40 long form: 0x + 64 lowercase hex' });
export const U64Out = Type.String({ description: 'u64 in the smallest unit, decimal string' });
export const IsoTime = Type.String({ format: 'date-time', description: 'ISO-8601 UTC' });
export const Name = (description: string) => Type.String({ minLength: 1, maxLength: 256, description });
/** A lootbox id in a request: a non-negative integer JavaScript holds exactly. */
export const LootboxId = (description: string) =>
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });

/**
 * `schema` or null, as a type with 'null' (`type: [t, 'null']`) where `schema` has one type and
 * no `const` or `enum` (a union otherwise). The API's serializers (fast-json-stringify) write a
 * nullable type with a typeof check; for a union (`anyOf`) they run an Ajv validator per branch on
 * every value, compiled at the route's first answer (apps/api plugins/response-schemas.ts refuses
 * them in responses). The OpenAPI 3.0 document shows either as the type with `nullable: true`.
 */
export const Nullable = <T extends TSchema>(schema: T): TUnsafe<Static<T> | null> => {
  const { type } = schema as { type?: unknown };
  if (typeof type === 'string' && type !== 'null' && !('const' in schema) && !('enum' in schema)) {
    return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
  }
  return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]));
};

/**
 * One of `values`, as a string `enum`: what a response schema uses for a choice of strings, for
 * the reason of `Nullable` (a union of literals is an `anyOf`). A query parameter keeps its union of
 * literals, which Ajv coerces and checks.
 */
export const StringEnum = <const V extends readonly [string, ...string[]]>(
  values: V,
  options: { description?: string } = {},
): TUnsafe<V[number]> => Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });

/** page / limit / cursor with the spec's default page size for the route; at most 100. */
export function pageQuery(defaultLimit: number) {
  return {
    page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1, description: 'page number, from 1' }),
    limit: Type.Integer({
      minimum: 1,
      maximum: 100,
      default: defaultLimit,
      description: 'page size, at most 100',
    }),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: 'opaque: nextCursor of the previous page (keyset paging; page is then only echoed)',
      }),
    ),
  };
}

const Pagination = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  hasMore: Type.Boolean(),
  nextCursor: Nullable(Type.String()),
});

export const ListOf = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), pagination: Pagination });
export const One = <T extends TSchema>(item: T) => Type.Object({ data: item });

export const ErrorBody = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  code: Type.String(),
  message: Type.String(),
});

/** The error statuses every authenticated data route can answer. */
export const ERRORS = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody, 503: ErrorBody };

/**
 * Set on every token and collection by the thumbnail-urls hook (optional here only because the
 * row mappers do not produce it).
 */
export const ThumbnailUrl = Type.Optional(
  Nullable(
    Type.String({
      format: 'uri',
      description:
        'absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI',
    }),
  ),
);

/** The crawl state of a token's off-chain document (issue #41). */
export const TokenMetadataState = Type.Object(
  {
    status: StringEnum(['ok', 'error', 'pending'], {
      description: 'pending: not fetched yet; error: the last fetch failed (see error)',
    }),
    error: Nullable(
      Type.String({ description: 'why the last fetch failed (404, not JSON, too large, timed out…)' }),
    ),
    fetchedAt: Nullable(IsoTime),
    valid: Nullable(
      Type.Boolean({ description: "the spec validation report's verdict (see validate-metadata)" }),
    ),
  },
  { description: "the token's off-chain metadata document: fetched, failed (and why) or pending" },
);
export type TokenMetadataState = Static<typeof TokenMetadataState>;

export const TokenSummary = Type.Object({
  tokenId: LongAddress,
  tokenName: Type.String(),
  tokenStandard: Type.String(),
  creator: Nullable(Type.String()),
  collection: Nullable(Type.String()),
  collectionId: Type.String(),
  collectionUrl: Nullable(Type.String()),
  tokenUri: Nullable(Type.String()),
  thumbnailUrl: ThumbnailUrl,
  image: Nullable(
    Type.String({
      description: "the off-chain document's image, as written (ipfs://, ar://, https://, data:)",
    }),
  ),
  animationUrl: Nullable(Type.String({ description: "the document's animation_url, as written" })),
  metadata: TokenMetadataState,
  description: Nullable(Type.String()),
  supply: Nullable(U64Out),
  maximum: Nullable(U64Out),
  isBurned: Type.Boolean(),
  lootboxId: Nullable(Type.Integer()),
  rarityTier: Nullable(Type.String({ description: 'lootbox tier the token was revealed with' })),
  mintedAt: Nullable(IsoTime),
  version: Type.Integer({ description: 'chain version of the mint (or last change)' }),
});
export type TokenSummary = Static<typeof TokenSummary>;

export const ActivityEntry = Type.Object({
  source: StringEnum(['token', 'market']),
  kind: Type.String({
    description: 'mint, transfer, deposit, withdraw, burn… or place_listing, fill_listing…',
  }),
  tokenId: Nullable(Type.String()),
  tokenStandard: Nullable(Type.String()),
  propertyVersion: Nullable(U64Out),
  collectionId: Nullable(Type.String()),
  from: Nullable(Type.String()),
  to: Nullable(Type.String()),
  seller: Nullable(Type.String()),
  buyer: Nullable(Type.String()),
  price: Nullable(U64Out),
  coinType: Nullable(Type.String()),
  quantity: U64Out,
  marketplace: Nullable(Type.String()),
  timestamp: IsoTime,
  version: Type.Integer(),
  eventIndex: Type.Integer(),
  flags: Type.Array(Type.String(), {
    description:
      'wash-trade reasons of a sale (self_trade, round_trip, token_churn, seller_funded); empty when clean or not a sale',
  }),
});
export type ActivityEntry = Static<typeof ActivityEntry>;

export const ListingCard = Type.Object({
  listingId: Type.String(),
  marketplace: Type.String(),
  tokenId: Type.String(),
  tokenName: Nullable(Type.String()),
  tokenStandard: Nullable(Type.String()),
  propertyVersion: Nullable(U64Out),
  creator: Nullable(Type.String()),
  collection: Nullable(Type.String()),
  collectionId: Nullable(Type.String()),
  tokenUri: Nullable(Type.String()),
  thumbnailUrl: ThumbnailUrl,
  seller: Nullable(Type.String()),
  price: U64Out,
  coinType: Type.String(),
  quantity: U64Out,
  status: Type.String({ description: 'active, sold or cancelled' }),
  listedAt: Nullable(IsoTime),
  version: Nullable(Type.Integer()),
});
export type ListingCard = Static<typeof ListingCard>;

export const Bid = Type.Object({
  kind: StringEnum(['token_offer', 'collection_offer']),
  offerId: Type.String(),
  marketplace: Type.String(),
  buyer: Type.String(),
  price: U64Out,
  coinType: Type.String(),
  quantity: U64Out,
  tokenId: Nullable(Type.String()),
  tokenName: Nullable(Type.String()),
  creator: Nullable(Type.String()),
  collection: Nullable(Type.String()),
  collectionId: Nullable(Type.String()),
  status: Type.String(),
  expiresAt: Nullable(IsoTime),
  timestamp: Nullable(IsoTime),
  version: Nullable(Type.Integer()),
});
export type Bid = Static<typeof Bid>;

export const Lootbox = Type.Object({
  lootboxId: Type.Integer(),
  creator: Type.String(),
  collection: Type.String(),
  collectionId: Type.String(),
  price: U64Out,
  coinType: Type.String(),
  maxSupply: U64Out,
  minted: U64Out,
  purchased: U64Out,
  revenue: U64Out,
  mintStart: IsoTime,
  mintEnd: Nullable(IsoTime),
  paused: Type.Boolean(),
  status: StringEnum(['upcoming', 'active', 'sold_out', 'ended']),
  createdAt: IsoTime,
  version: Type.Integer(),
});
export type Lootbox = Static<typeof Lootbox>;
