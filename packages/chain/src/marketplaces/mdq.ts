import { DEFAULT_MARKETPLACE_ADDRESS } from '../address';
import type { MarketplaceConfig } from './config';
import { APT, referenceShapeEvents } from './reference-shape';

/**
 * mdq's own marketplace contract: Wapal's `events::ListingPlacedEvent` family at a configurable
 * address (MARKETPLACE_ADDRESS; default 0x…6d71). Its events may also carry `coin_type` (String)
 * and `expiration_time` (u64 seconds) so that offers are complete without a resource lookup;
 * when absent the coin is APT.
 */
export function mdqMarketplace(address: string = DEFAULT_MARKETPLACE_ADDRESS): MarketplaceConfig {
  const expiration = { path: '$.expiration_time', unit: 'seconds' } as const;
  return {
    name: 'mdq',
    events: referenceShapeEvents({
      address,
      suffix: 'Event',
      coinType: ['$.coin_type', { const: APT }],
      tokenOfferExtras: { expirationTimeUs: expiration },
      collectionOfferExtras: { expirationTimeUs: expiration },
    }),
  };
}
