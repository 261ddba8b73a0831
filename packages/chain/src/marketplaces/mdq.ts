import { DEFAULT_MARKETPLACE_ADDRESS } from '../address';
import type { MarketplaceConfig } from './config';
import { APT, referenceShapeEvents } from './reference-shape';
import { wapalOfferSources } from './wapal';

/**
 * mdq's own marketplace contract: Wapal's `events::ListingPlacedEvent` family and offer resources
 * (`token_offer::TokenOffer`, `collection_offer::CollectionOffer`) at a configurable address
 * (MARKETPLACE_ADDRESS; default 0x…6d71), as the devnet renders it. Its events may also carry
 * `coin_type` (String) and `expiration_time` (u64 seconds), read first when present; without a
 * coin type the coin is APT.
 */
export function mdqMarketplace(address: string = DEFAULT_MARKETPLACE_ADDRESS): MarketplaceConfig {
  const expiration = { expirationTimeUs: { path: '$.expiration_time', unit: 'seconds' } } as const;
  return {
    name: 'mdq',
    events: referenceShapeEvents({
      types: {
        ListingPlaced: `${address}::events::ListingPlacedEvent`,
        ListingCanceled: `${address}::events::ListingCanceledEvent`,
        ListingFilled: `${address}::events::ListingFilledEvent`,
        TokenOfferPlaced: `${address}::events::TokenOfferPlacedEvent`,
        TokenOfferCanceled: `${address}::events::TokenOfferCanceledEvent`,
        TokenOfferFilled: `${address}::events::TokenOfferFilledEvent`,
        CollectionOfferPlaced: `${address}::events::CollectionOfferPlacedEvent`,
        CollectionOfferCanceled: `${address}::events::CollectionOfferCanceledEvent`,
        CollectionOfferFilled: `${address}::events::CollectionOfferFilledEvent`,
      },
      coinType: ['$.coin_type', { const: APT }],
      ...wapalOfferSources(address, { tokenOffer: expiration, collectionOffer: expiration }),
    }),
  };
}
