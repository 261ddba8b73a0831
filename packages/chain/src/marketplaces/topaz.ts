import type { MarketEventConfig, MarketFieldSources, MarketplaceConfig } from './config';
import { APT } from './reference-shape';

export const TOPAZ_ADDRESS = '0x2c7bccf7b31baf770fdbcc768d9e9cb3d87805e255355df5db32ac9a669010a2';
/**
 * Topaz's second contract address. The official legacy `nft_orderbooks` processor
 * (`nft_marketplace_constants.py`, MARKETPLACE_SMART_CONTRACT_ADDRESSES) maps both addresses to
 * Topaz and routes an event by its type's address, reading the same `events::*` shapes.
 */
export const TOPAZ_SECOND_ADDRESS = '0xd4c70815e9d245a097646af821ecf87a073039e71e93c8cd04a0da082134d296';

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

/** What each Topaz event is, the same at both addresses. */
const LIST: MarketEventConfig = {
  kind: 'place_listing',
  fields: { ...token, listingId: '$.listing_id', seller: ['$.seller', '$.owner'] },
};
const DELIST: MarketEventConfig = {
  kind: 'cancel_listing',
  fields: { ...token, listingId: '$.listing_id', seller: ['$.seller', '$.owner'] },
};
const BUY: MarketEventConfig = {
  kind: 'fill_listing',
  fields: { ...token, listingId: '$.listing_id', seller: ['$.seller', '$.owner'], buyer: '$.buyer' },
};
const BID: MarketEventConfig = {
  kind: 'place_token_offer',
  fields: { ...token, offerId: '$.bid_id', buyer: '$.buyer', expirationTimeUs: deadline },
};
const CANCEL_BID: MarketEventConfig = {
  kind: 'cancel_token_offer',
  fields: { ...token, offerId: '$.bid_id', buyer: '$.buyer' },
};
const SELL: MarketEventConfig = {
  kind: 'fill_token_offer',
  fields: { ...token, offerId: '$.bid_id', buyer: '$.buyer', seller: '$.seller' },
};
const COLLECTION_BID: MarketEventConfig = {
  kind: 'place_collection_offer',
  fields: {
    ...collection,
    tokenAmount: '$.amount',
    remainingTokenAmount: '$.amount',
    expirationTimeUs: deadline,
  },
};
const CANCEL_COLLECTION_BID: MarketEventConfig = { kind: 'cancel_collection_offer', fields: collection };
const FILL_COLLECTION_BID: MarketEventConfig = {
  kind: 'fill_collection_offer',
  fields: {
    ...collection,
    ...token,
    collectionName: ['$.token_id.token_data_id.collection', '$.collection_name'],
    seller: '$.seller',
  },
};

/**
 * Topaz, as mapped by the official `example/topaz.yaml` (first address) and the legacy
 * `nft_orderbooks` processor (both addresses); no real transactions in the fixtures, so unverified.
 * Listing seller is `seller` or, in older events, `owner`. The event types are spelled out so a
 * search for one finds its mapping.
 */
export const topaz: MarketplaceConfig = {
  name: 'topaz',
  events: {
    '0x2c7bccf7b31baf770fdbcc768d9e9cb3d87805e255355df5db32ac9a669010a2::events::ListEvent': LIST,
    '0x2c7bccf7b31baf770fdbcc768d9e9cb3d87805e255355df5db32ac9a669010a2::events::DelistEvent': DELIST,
    '0x2c7bccf7b31baf770fdbcc768d9e9cb3d87805e255355df5db32ac9a669010a2::events::BuyEvent': BUY,
    '0x2c7bccf7b31baf770fdbcc768d9e9cb3d87805e255355df5db32ac9a669010a2::events::BidEvent': BID,
    '0x2c7bccf7b31baf770fdbcc768d9e9cb3d87805e255355df5db32ac9a669010a2::events::CancelBidEvent': CANCEL_BID,
    '0x2c7bccf7b31baf770fdbcc768d9e9cb3d87805e255355df5db32ac9a669010a2::events::SellEvent': SELL,
    '0x2c7bccf7b31baf770fdbcc768d9e9cb3d87805e255355df5db32ac9a669010a2::events::CollectionBidEvent':
      COLLECTION_BID,
    '0x2c7bccf7b31baf770fdbcc768d9e9cb3d87805e255355df5db32ac9a669010a2::events::CancelCollectionBidEvent':
      CANCEL_COLLECTION_BID,
    '0x2c7bccf7b31baf770fdbcc768d9e9cb3d87805e255355df5db32ac9a669010a2::events::FillCollectionBidEvent':
      FILL_COLLECTION_BID,
    '0xd4c70815e9d245a097646af821ecf87a073039e71e93c8cd04a0da082134d296::events::ListEvent': LIST,
    '0xd4c70815e9d245a097646af821ecf87a073039e71e93c8cd04a0da082134d296::events::DelistEvent': DELIST,
    '0xd4c70815e9d245a097646af821ecf87a073039e71e93c8cd04a0da082134d296::events::BuyEvent': BUY,
    '0xd4c70815e9d245a097646af821ecf87a073039e71e93c8cd04a0da082134d296::events::BidEvent': BID,
    '0xd4c70815e9d245a097646af821ecf87a073039e71e93c8cd04a0da082134d296::events::CancelBidEvent': CANCEL_BID,
    '0xd4c70815e9d245a097646af821ecf87a073039e71e93c8cd04a0da082134d296::events::SellEvent': SELL,
    '0xd4c70815e9d245a097646af821ecf87a073039e71e93c8cd04a0da082134d296::events::CollectionBidEvent':
      COLLECTION_BID,
    '0xd4c70815e9d245a097646af821ecf87a073039e71e93c8cd04a0da082134d296::events::CancelCollectionBidEvent':
      CANCEL_COLLECTION_BID,
    '0xd4c70815e9d245a097646af821ecf87a073039e71e93c8cd04a0da082134d296::events::FillCollectionBidEvent':
      FILL_COLLECTION_BID,
  },
};
