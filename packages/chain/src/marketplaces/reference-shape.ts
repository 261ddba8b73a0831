import type { MarketEventConfig, MarketFieldSources } from './config';

/**
 * Field mappings for marketplaces built on the aptos-core reference marketplace
 * (`move-examples/marketplace`, `events.move`): Wapal, Wagmi, Rarible forks and mdq's own contract.
 * Pure data; a config spreads these and adds what its contract does differently.
 */
export const APT = '0x1::aptos_coin::AptosCoin';

/** `token_metadata {collection: Option<Object>, collection_name, creator_address, property_version: Option<u64>, token: Option<Object>, token_name}`. */
export const TOKEN_METADATA: MarketFieldSources = {
  tokenDataId: [
    '$.token_metadata.token.vec[0].inner',
    {
      v1TokenDataId: {
        creator: '$.token_metadata.creator_address',
        collection: '$.token_metadata.collection_name',
        name: '$.token_metadata.token_name',
      },
    },
  ],
  collectionId: [
    '$.token_metadata.collection.vec[0].inner',
    {
      v1CollectionId: {
        creator: '$.token_metadata.creator_address',
        collection: '$.token_metadata.collection_name',
      },
    },
  ],
  collectionName: '$.token_metadata.collection_name',
  creatorAddress: '$.token_metadata.creator_address',
  tokenName: '$.token_metadata.token_name',
  propertyVersion: '$.token_metadata.property_version.vec[0]',
};

/**
 * `token_id: TokenId {token_data_id {creator, collection, name}, property_version}`: how v1-only
 * venues (Tradeport v1, Souffl3) name a token, not the reference marketplace's shape; ids are the
 * official v1 hashes.
 */
export const V1_TOKEN_ID: MarketFieldSources = {
  tokenDataId: {
    v1TokenDataId: {
      creator: '$.token_id.token_data_id.creator',
      collection: '$.token_id.token_data_id.collection',
      name: '$.token_id.token_data_id.name',
    },
  },
  collectionId: {
    v1CollectionId: {
      creator: '$.token_id.token_data_id.creator',
      collection: '$.token_id.token_data_id.collection',
    },
  },
  collectionName: '$.token_id.token_data_id.collection',
  creatorAddress: '$.token_id.token_data_id.creator',
  tokenName: '$.token_id.token_data_id.name',
  propertyVersion: '$.token_id.property_version',
};

/** `collection_metadata {collection: Option<Object>, collection_name, creator_address}`. */
export const COLLECTION_METADATA: MarketFieldSources = {
  collectionId: [
    '$.collection_metadata.collection.vec[0].inner',
    {
      v1CollectionId: {
        creator: '$.collection_metadata.creator_address',
        collection: '$.collection_metadata.collection_name',
      },
    },
  ],
  collectionName: '$.collection_metadata.collection_name',
  creatorAddress: '$.collection_metadata.creator_address',
};

/** The nine events of the reference marketplace, by their reference-contract names. */
type ReferenceEvent =
  | 'ListingPlaced'
  | 'ListingCanceled'
  | 'ListingFilled'
  | 'TokenOfferPlaced'
  | 'TokenOfferCanceled'
  | 'TokenOfferFilled'
  | 'CollectionOfferPlaced'
  | 'CollectionOfferCanceled'
  | 'CollectionOfferFilled';

export interface ReferenceShapeOptions {
  /**
   * Each event's full Move type, written out where the marketplace is configured so that a reader
   * searching the source for a chain event type finds its decoder (Wapal and mdq name their structs
   * `ListingPlacedEvent`, the reference contract `ListingPlaced`).
   */
  types: Record<ReferenceEvent, string>;
  /** Extra sources per field, tried after the reference ones (e.g. offer expirations in resources). */
  tokenOfferExtras?: MarketFieldSources;
  collectionOfferExtras?: MarketFieldSources;
  /** Coin type sources; the reference events carry none. */
  coinType: MarketFieldSources['coinType'];
}

export function referenceShapeEvents(options: ReferenceShapeOptions): Record<string, MarketEventConfig> {
  const type = (name: ReferenceEvent): string => options.types[name];
  const coin: MarketFieldSources = options.coinType === undefined ? {} : { coinType: options.coinType };
  const listing: MarketFieldSources = {
    ...TOKEN_METADATA,
    ...coin,
    listingId: '$.listing',
    seller: '$.seller',
    price: '$.price',
  };
  const tokenOffer: MarketFieldSources = {
    ...TOKEN_METADATA,
    ...coin,
    offerId: '$.token_offer',
    buyer: '$.purchaser',
    price: '$.price',
    ...options.tokenOfferExtras,
  };
  const collectionOffer: MarketFieldSources = {
    ...COLLECTION_METADATA,
    ...coin,
    offerId: '$.collection_offer',
    buyer: '$.purchaser',
    price: '$.price',
    ...options.collectionOfferExtras,
  };
  const fill: MarketFieldSources = {
    seller: '$.seller',
    commission: '$.commission',
    royalties: '$.royalties',
  };
  return {
    [type('ListingPlaced')]: { kind: 'place_listing', fields: listing },
    [type('ListingCanceled')]: { kind: 'cancel_listing', fields: listing },
    [type('ListingFilled')]: { kind: 'fill_listing', fields: { ...listing, ...fill, buyer: '$.purchaser' } },
    [type('TokenOfferPlaced')]: { kind: 'place_token_offer', fields: tokenOffer },
    [type('TokenOfferCanceled')]: { kind: 'cancel_token_offer', fields: tokenOffer },
    [type('TokenOfferFilled')]: { kind: 'fill_token_offer', fields: { ...tokenOffer, ...fill } },
    [type('CollectionOfferPlaced')]: {
      kind: 'place_collection_offer',
      fields: {
        ...collectionOffer,
        tokenAmount: '$.token_amount',
        remainingTokenAmount: withFallback(
          options.collectionOfferExtras?.remainingTokenAmount,
          '$.token_amount',
        ),
      },
    },
    [type('CollectionOfferCanceled')]: {
      kind: 'cancel_collection_offer',
      fields: {
        ...collectionOffer,
        tokenAmount: '$.remaining_token_amount',
        remainingTokenAmount: '$.remaining_token_amount',
      },
    },
    [type('CollectionOfferFilled')]: {
      kind: 'fill_collection_offer',
      fields: { ...collectionOffer, ...TOKEN_METADATA, ...fill },
    },
  };
}

function withFallback(
  first: MarketFieldSources['remainingTokenAmount'],
  fallback: string,
): NonNullable<MarketFieldSources['remainingTokenAmount']> {
  if (first === undefined) return fallback;
  return [...(Array.isArray(first) ? first : [first]), fallback];
}
