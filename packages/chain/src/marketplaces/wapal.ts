import type { MarketFieldSources, MarketplaceConfig } from './config';
import { APT, referenceShapeEvents } from './reference-shape';

/** Wapal (Mokshya) marketplace module; events are handle events on the fee-schedule object 0x71f7…ac08. */
export const WAPAL_ADDRESS = '0x584b50b999c78ade62f8359c91b5165ff390338d45f8e55969a04e65d76258c9';

/**
 * Where a Wapal-style contract at `address` keeps offer state: expirations (unix seconds) and a
 * collection offer's remaining count live in the offer object's resource, written in the same
 * transaction; a deleted offer object wants 0 more. `extra` sources are tried first.
 */
export function wapalOfferSources(
  address: string,
  extra: { tokenOffer?: MarketFieldSources; collectionOffer?: MarketFieldSources } = {},
): { tokenOfferExtras: MarketFieldSources; collectionOfferExtras: MarketFieldSources } {
  const tokenOffer = `${address}::token_offer::TokenOffer`;
  const collectionOffer = `${address}::collection_offer::CollectionOffer`;
  const first = (sources: MarketFieldSources | undefined, field: keyof MarketFieldSources) => {
    const value = sources?.[field];
    return value === undefined ? [] : Array.isArray(value) ? value : [value];
  };
  return {
    tokenOfferExtras: {
      expirationTimeUs: [
        ...first(extra.tokenOffer, 'expirationTimeUs'),
        { resource: tokenOffer, at: '$.token_offer', path: '$.expiration_time', unit: 'seconds' },
      ],
    },
    collectionOfferExtras: {
      expirationTimeUs: [
        ...first(extra.collectionOffer, 'expirationTimeUs'),
        { resource: collectionOffer, at: '$.collection_offer', path: '$.expiration_time', unit: 'seconds' },
      ],
      remainingTokenAmount: [
        { resource: collectionOffer, at: '$.collection_offer', path: '$.remaining' },
        { ifDeleted: '$.collection_offer', value: '0' },
      ],
    },
  };
}

/**
 * Wapal follows the reference marketplace without the `marketplace` field and with the `…Event`
 * suffix (README §6.3). The events carry no coin type; Wapal trades on mainnet settle in APT
 * (every fixture does).
 */
export const wapal: MarketplaceConfig = {
  name: 'wapal',
  events: referenceShapeEvents({
    types: {
      ListingPlaced:
        '0x584b50b999c78ade62f8359c91b5165ff390338d45f8e55969a04e65d76258c9::events::ListingPlacedEvent',
      ListingCanceled:
        '0x584b50b999c78ade62f8359c91b5165ff390338d45f8e55969a04e65d76258c9::events::ListingCanceledEvent',
      ListingFilled:
        '0x584b50b999c78ade62f8359c91b5165ff390338d45f8e55969a04e65d76258c9::events::ListingFilledEvent',
      TokenOfferPlaced:
        '0x584b50b999c78ade62f8359c91b5165ff390338d45f8e55969a04e65d76258c9::events::TokenOfferPlacedEvent',
      TokenOfferCanceled:
        '0x584b50b999c78ade62f8359c91b5165ff390338d45f8e55969a04e65d76258c9::events::TokenOfferCanceledEvent',
      TokenOfferFilled:
        '0x584b50b999c78ade62f8359c91b5165ff390338d45f8e55969a04e65d76258c9::events::TokenOfferFilledEvent',
      CollectionOfferPlaced:
        '0x584b50b999c78ade62f8359c91b5165ff390338d45f8e55969a04e65d76258c9::events::CollectionOfferPlacedEvent',
      CollectionOfferCanceled:
        '0x584b50b999c78ade62f8359c91b5165ff390338d45f8e55969a04e65d76258c9::events::CollectionOfferCanceledEvent',
      CollectionOfferFilled:
        '0x584b50b999c78ade62f8359c91b5165ff390338d45f8e55969a04e65d76258c9::events::CollectionOfferFilledEvent',
    },
    coinType: { const: APT },
    ...wapalOfferSources(WAPAL_ADDRESS),
  }),
};
