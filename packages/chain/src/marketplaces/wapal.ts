import type { MarketplaceConfig } from './config';
import { APT, referenceShapeEvents } from './reference-shape';

/** Wapal (Mokshya) marketplace module; events are handle events on the fee-schedule object 0x71f7…ac08. */
export const WAPAL_ADDRESS = '0x584b50b999c78ade62f8359c91b5165ff390338d45f8e55969a04e65d76258c9';

/**
 * Wapal follows the reference marketplace without the `marketplace` field and with the `…Event`
 * suffix (README §6.3). Offer expirations and a collection offer's remaining count live in the
 * offer object's resource, written in the same transaction; a deleted offer object wants 0 more.
 * The events carry no coin type; Wapal trades on mainnet settle in APT (every fixture does).
 */
export const wapal: MarketplaceConfig = {
  name: 'wapal',
  events: referenceShapeEvents({
    address: WAPAL_ADDRESS,
    suffix: 'Event',
    coinType: { const: APT },
    tokenOfferExtras: {
      expirationTimeUs: {
        resource: `${WAPAL_ADDRESS}::token_offer::TokenOffer`,
        at: '$.token_offer',
        path: '$.expiration_time',
        unit: 'seconds',
      },
    },
    collectionOfferExtras: {
      expirationTimeUs: {
        resource: `${WAPAL_ADDRESS}::collection_offer::CollectionOffer`,
        at: '$.collection_offer',
        path: '$.expiration_time',
        unit: 'seconds',
      },
      remainingTokenAmount: [
        {
          resource: `${WAPAL_ADDRESS}::collection_offer::CollectionOffer`,
          at: '$.collection_offer',
          path: '$.remaining',
        },
        { ifDeleted: '$.collection_offer', value: '0' },
      ],
    },
  }),
};
