import { type Static, Type } from 'typebox';
import { Address, IsoTime, Name, Nullable } from './common';
import { FEED_KINDS, type FeedKind } from './feed-kinds';

const list = (description: string) => Type.String({ minLength: 1, maxLength: 4096, description });

/** The live feed's filters and resume point; lists are comma-separated, values within one are ORed. */
export const EventStreamQuery = Type.Object({
  apiKey: Type.Optional(
    Type.String({ description: "the API key, for browsers' EventSource which cannot send headers" }),
  ),
  since: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        "resume after this event id (`<version>:<eventIndex>`), or 'earliest' for all history; Last-Event-ID wins when both are given; default: live events only",
    }),
  ),
  collectionId: Type.Optional(list('collection ids (comma-separated)')),
  creator: Type.Optional(Address('collection creator, with collection')),
  collection: Type.Optional(Name('collection name, with creator')),
  tokenId: Type.Optional(list('token ids (comma-separated)')),
  wallet: Type.Optional(list('wallet addresses matched as buyer, seller, from or to (comma-separated)')),
  kinds: Type.Optional(list(`event kinds (comma-separated) among ${FEED_KINDS.join(', ')}`)),
  marketplace: Type.Optional(list('marketplace names (comma-separated)')),
});

const text = Nullable(Type.String());

const FeedRankingChange = Type.Object(
  {
    name: Type.String({ description: 'trending, daily_picks or top (the rankings routes)' }),
    window: Type.String({ description: "the ranking's trailing window: 24h, 7d or 30d" }),
    rank: Nullable(
      Type.Integer({ description: 'position after the run (1 = first); null: no longer ranked' }),
    ),
    previousRank: Nullable(Type.Integer({ description: 'position before the run; null: was not ranked' })),
    score: Nullable(Type.Number()),
    top: Type.Integer({ description: 'rank or previousRank (or both) is at most this' }),
    computedAt: IsoTime,
  },
  { description: 'ranking_changed: a collection entered, left or moved within the top `top`' },
);

/**
 * One feed event as SSE `data:`, a WebSocket message and a webhook body carry it. Described here
 * for the OpenAPI document; the feed builds it as @mdq/db's FeedEvent, which the compiler holds to
 * this schema (feedData).
 */
export const FeedEvent = Type.Object({
  id: Type.String({ description: '`<version>:<eventIndex>`: unique, in chain order; the resume point' }),
  kind: Type.Unsafe<FeedKind>({ type: 'string', enum: [...FEED_KINDS] }),
  version: Type.Integer(),
  eventIndex: Type.Integer(),
  timestamp: Type.String({ description: 'block timestamp (ISO 8601)' }),
  collectionId: text,
  tokenId: text,
  tokenStandard: text,
  propertyVersion: text,
  seller: text,
  buyer: text,
  from: text,
  to: text,
  price: Nullable(
    Type.String({ description: 'smallest unit; floor_changed: the new floor (null: none listed)' }),
  ),
  coinType: text,
  quantity: Type.String(),
  marketplace: text,
  listingId: text,
  offerId: text,
  lootboxId: Nullable(Type.Integer()),
  tier: text,
  ranking: Nullable(FeedRankingChange),
});
export type FeedEvent = Static<typeof FeedEvent>;
