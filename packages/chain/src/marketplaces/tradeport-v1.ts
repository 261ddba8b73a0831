import type { MarketFieldSources, MarketplaceConfig } from './config';
import { APT, V1_TOKEN_ID } from './reference-shape';

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
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::listings::InsertListingEvent']: {
      kind: 'place_listing',
      fields: { ...tokenId, seller: '$.owner' },
    },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::listings::DeleteListingEvent']: {
      kind: 'cancel_listing',
      fields: { ...tokenId, seller: '$.owner' },
    },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::listings::BuyEvent']: {
      kind: 'fill_listing',
      fields: { ...tokenId, seller: '$.owner', buyer: '$.buyer' },
    },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::biddings::InsertTokenBidEvent']: {
      kind: 'place_token_offer',
      fields: { ...tokenId, buyer: '$.bid_buyer' },
    },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::biddings::DeleteTokenBidEvent']: {
      kind: 'cancel_token_offer',
      fields: { ...tokenId, buyer: '$.bid_buyer' },
    },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::biddings::AcceptTokenBidEvent']: {
      kind: 'fill_token_offer',
      fields: { ...tokenId, buyer: '$.bid_buyer', seller: '$.bid_seller' },
    },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::biddings::InsertCollectionBidEvent']:
      { kind: 'place_collection_offer', fields: collectionId },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::biddings::DeleteCollectionBidEvent']:
      { kind: 'cancel_collection_offer', fields: collectionId },
    ['0xe11c12ec495f3989c35e1c6a0af414451223305b579291fc8f3d9d0575a23c26::biddings::AcceptCollectionBidEvent']:
      {
        kind: 'fill_collection_offer',
        fields: { ...collectionId, seller: '$.bid_seller' },
      },
  },
};
