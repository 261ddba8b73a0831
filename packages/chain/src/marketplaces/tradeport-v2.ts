import type { MarketFieldSources, MarketplaceConfig } from './config';
import { APT } from './reference-shape';

export const TRADEPORT_ADDRESS = '0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26';

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
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::listings_v2::InsertListingEvent']: {
      kind: 'place_listing',
      fields: listing,
    },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::listings_v2::DeleteListingEvent']: {
      kind: 'cancel_listing',
      fields: listing,
    },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::listings_v2::BuyEvent']: {
      kind: 'fill_listing',
      fields: { ...listing, buyer: '$.buyer' },
    },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::biddings_v2::InsertTokenBidEvent']:
      { kind: 'place_token_offer', fields: tokenBid },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::biddings_v2::DeleteTokenBidEvent']:
      { kind: 'cancel_token_offer', fields: tokenBid },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::biddings_v2::AcceptTokenBidEvent']:
      {
        kind: 'fill_token_offer',
        fields: { ...tokenBid, seller: '$.bid_seller' },
      },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::biddings_v2::InsertCollectionBidEvent']:
      {
        kind: 'place_collection_offer',
        fields: { ...collectionBid, remainingTokenAmount: { const: '1' } },
      },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::biddings_v2::DeleteCollectionBidEvent']:
      {
        kind: 'cancel_collection_offer',
        fields: { ...collectionBid, remainingTokenAmount: { ifDeleted: '$.bid.inner', value: '0' } },
      },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::biddings_v2::AcceptCollectionBidEvent']:
      {
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
