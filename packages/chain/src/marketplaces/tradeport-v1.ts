import type { MarketFieldSources, MarketplaceConfig } from './config';
import { APT, V1_TOKEN_ID } from './reference-shape';
import { TRADEPORT_ADDRESS } from './tradeport-v2';

const listings = (name: string): string => `${TRADEPORT_ADDRESS}::listings::${name}`;
const biddings = (name: string): string => `${TRADEPORT_ADDRESS}::biddings::${name}`;

/** v1 events name the token by `token_id: TokenId` (V1_TOKEN_ID). */
const tokenId: MarketFieldSources = {
  ...V1_TOKEN_ID,
  price: '$.price',
  coinType: { const: APT },
};
const collectionId: MarketFieldSources = {
  collectionId: {
    v1CollectionId: {
      creator: '$.collection_id.collection_creator',
      collection: '$.collection_id.collection_name',
    },
  },
  collectionName: '$.collection_id.collection_name',
  creatorAddress: '$.collection_id.collection_creator',
  buyer: '$.bid_buyer',
  price: '$.price',
  coinType: { const: APT },
};

/**
 * Tradeport v1 (token v1). Only `listings::BuyEvent` has real data (2382221134); the rest follows
 * the official `tradeport_v1.yaml` (invalid YAML as published, read by eye). Deviation: the YAML
 * writes the collection *name* into `collection_id`; we store the v1 collection id hash there and
 * the name in `collectionName`.
 */
export const tradeportV1: MarketplaceConfig = {
  name: 'tradeport_v1',
  events: {
    [listings('InsertListingEvent')]: { kind: 'place_listing', fields: { ...tokenId, seller: '$.owner' } },
    [listings('DeleteListingEvent')]: { kind: 'cancel_listing', fields: { ...tokenId, seller: '$.owner' } },
    [listings('BuyEvent')]: {
      kind: 'fill_listing',
      fields: { ...tokenId, seller: '$.owner', buyer: '$.buyer' },
    },
    [biddings('InsertTokenBidEvent')]: {
      kind: 'place_token_offer',
      fields: { ...tokenId, buyer: '$.bid_buyer' },
    },
    [biddings('DeleteTokenBidEvent')]: {
      kind: 'cancel_token_offer',
      fields: { ...tokenId, buyer: '$.bid_buyer' },
    },
    [biddings('AcceptTokenBidEvent')]: {
      kind: 'fill_token_offer',
      fields: { ...tokenId, buyer: '$.bid_buyer', seller: '$.bid_seller' },
    },
    [biddings('InsertCollectionBidEvent')]: { kind: 'place_collection_offer', fields: collectionId },
    [biddings('DeleteCollectionBidEvent')]: { kind: 'cancel_collection_offer', fields: collectionId },
    [biddings('AcceptCollectionBidEvent')]: {
      kind: 'fill_collection_offer',
      fields: { ...collectionId, seller: '$.bid_seller' },
    },
  },
};
