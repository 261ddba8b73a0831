import type { MarketFieldSources, MarketplaceConfig } from './config';
import { APT } from './reference-shape';

export const TRADEPORT_ADDRESS = '0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26';

const listings = (name: string): string => `${TRADEPORT_ADDRESS}::listings_v2::${name}`;
const biddings = (name: string): string => `${TRADEPORT_ADDRESS}::biddings_v2::${name}`;

/** Events name only the token object; name and collection come from the write set (engine enrichment). */
const listing: MarketFieldSources = {
  listingId: '$.listing.inner',
  tokenDataId: '$.token.inner',
  seller: '$.seller',
  price: '$.price',
  coinType: { const: APT },
};
const tokenBid: MarketFieldSources = {
  offerId: '$.bid.inner',
  tokenDataId: '$.token.inner',
  buyer: '$.bid_buyer',
  price: '$.price',
  coinType: { const: APT },
};
const collectionBid: MarketFieldSources = {
  offerId: '$.bid.inner',
  collectionId: '$.collection.inner',
  buyer: '$.bid_buyer',
  price: '$.price',
  coinType: { const: APT },
};

/**
 * Tradeport v2 (digital assets), handle events on the contract account (README §6.3). Deviations
 * from the official `tradeport_v2.yaml`: BuyEvent's buyer is read from `buyer` (the YAML's
 * `$.buyert` is a typo that leaves every fill without a buyer); `InsertCollectionBidEvent` is
 * mapped (missing from the example YAML, present in the test config). A collection bid object
 * holds coins for exactly one token; once the bid object is deleted nothing more is wanted.
 */
export const tradeportV2: MarketplaceConfig = {
  name: 'tradeport_v2',
  events: {
    [listings('InsertListingEvent')]: { kind: 'place_listing', fields: listing },
    [listings('DeleteListingEvent')]: { kind: 'cancel_listing', fields: listing },
    [listings('BuyEvent')]: { kind: 'fill_listing', fields: { ...listing, buyer: '$.buyer' } },
    [biddings('InsertTokenBidEvent')]: { kind: 'place_token_offer', fields: tokenBid },
    [biddings('DeleteTokenBidEvent')]: { kind: 'cancel_token_offer', fields: tokenBid },
    [biddings('AcceptTokenBidEvent')]: {
      kind: 'fill_token_offer',
      fields: { ...tokenBid, seller: '$.bid_seller' },
    },
    [biddings('InsertCollectionBidEvent')]: {
      kind: 'place_collection_offer',
      fields: { ...collectionBid, remainingTokenAmount: { const: '1' } },
    },
    [biddings('DeleteCollectionBidEvent')]: {
      kind: 'cancel_collection_offer',
      fields: { ...collectionBid, remainingTokenAmount: { ifDeleted: '$.bid.inner', value: '0' } },
    },
    [biddings('AcceptCollectionBidEvent')]: {
      kind: 'fill_collection_offer',
      fields: {
        ...collectionBid,
        tokenDataId: '$.token.inner',
        seller: '$.bid_seller',
        remainingTokenAmount: { ifDeleted: '$.bid.inner', value: '0' },
      },
    },
  },
};
