import type { MarketFieldSources, MarketplaceConfig } from './config';
import { APT } from './reference-shape';

export const TOPAZ_ADDRESS = '0x2c7bccf7b31baf770fdbcc768d9e9cb3d87805e255355df5db32ac9a669010a2';

const type = (name: string): string => `${TOPAZ_ADDRESS}::events::${name}`;

/** Topaz names v2 tokens by `token_inner` and v1 tokens by `token_id`; either yields the id. */
const token: MarketFieldSources = {
  tokenDataId: [
    '$.token_inner',
    {
      v1TokenDataId: {
        creator: '$.token_id.token_data_id.creator',
        collection: '$.token_id.token_data_id.collection',
        name: '$.token_id.token_data_id.name',
      },
    },
  ],
  collectionId: [
    '$.collection_inner',
    {
      v1CollectionId: {
        creator: '$.token_id.token_data_id.creator',
        collection: '$.token_id.token_data_id.collection',
      },
    },
  ],
  tokenName: '$.token_id.token_data_id.name',
  creatorAddress: '$.token_id.token_data_id.creator',
  collectionName: '$.token_id.token_data_id.collection',
  propertyVersion: '$.token_id.property_version',
  tokenAmount: '$.amount',
  price: '$.price',
  coinType: { const: APT },
};
const collection: MarketFieldSources = {
  offerId: '$.bid_id',
  buyer: '$.buyer',
  price: '$.price',
  collectionId: [
    '$.collection_inner',
    { v1CollectionId: { creator: '$.creator', collection: '$.collection_name' } },
  ],
  creatorAddress: '$.creator',
  collectionName: ['$.collection_name', '$.collection'],
  coinType: { const: APT },
};
// Topaz deadlines are unix seconds in its contract (as the official config stores them as expiration_time).
const deadline = { path: '$.deadline', unit: 'seconds' } as const;

/**
 * Topaz, as mapped by the official `example/topaz.yaml` (no real transactions in the fixtures,
 * so unverified). Listing seller is `seller` or, in older events, `owner`.
 */
export const topaz: MarketplaceConfig = {
  name: 'topaz',
  events: {
    [type('ListEvent')]: {
      kind: 'place_listing',
      fields: { ...token, listingId: '$.listing_id', seller: ['$.seller', '$.owner'] },
    },
    [type('DelistEvent')]: {
      kind: 'cancel_listing',
      fields: { ...token, listingId: '$.listing_id', seller: ['$.seller', '$.owner'] },
    },
    [type('BuyEvent')]: {
      kind: 'fill_listing',
      fields: { ...token, listingId: '$.listing_id', seller: ['$.seller', '$.owner'], buyer: '$.buyer' },
    },
    [type('BidEvent')]: {
      kind: 'place_token_offer',
      fields: { ...token, offerId: '$.bid_id', buyer: '$.buyer', expirationTimeUs: deadline },
    },
    [type('CancelBidEvent')]: {
      kind: 'cancel_token_offer',
      fields: { ...token, offerId: '$.bid_id', buyer: '$.buyer' },
    },
    [type('SellEvent')]: {
      kind: 'fill_token_offer',
      fields: { ...token, offerId: '$.bid_id', buyer: '$.buyer', seller: '$.seller' },
    },
    [type('CollectionBidEvent')]: {
      kind: 'place_collection_offer',
      fields: {
        ...collection,
        tokenAmount: '$.amount',
        remainingTokenAmount: '$.amount',
        expirationTimeUs: deadline,
      },
    },
    [type('CancelCollectionBidEvent')]: { kind: 'cancel_collection_offer', fields: collection },
    [type('FillCollectionBidEvent')]: {
      kind: 'fill_collection_offer',
      fields: {
        ...collection,
        ...token,
        collectionName: ['$.token_id.token_data_id.collection', '$.collection_name'],
        seller: '$.seller',
      },
    },
  },
};
