import { Type } from 'typebox';
import { Address, Name } from './common';

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
  kinds: Type.Optional(list('event kinds (comma-separated), e.g. listing_sold,mint')),
  marketplace: Type.Optional(list('marketplace names (comma-separated)')),
});
