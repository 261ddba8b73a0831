import type { MarketFieldSources, MarketplaceConfig } from './config';
import { V1_TOKEN_ID } from './reference-shape';

export const SOUFFL3_ADDRESS = '0xf6994988bd40261af9431cd6dd3fcf765569719e66322c7a05cc78a89cd366d4';

/** Souffl3 trades token v1 only, named by `token_id: TokenId` (V1_TOKEN_ID). */
const token: MarketFieldSources = {
  ...V1_TOKEN_ID,
  // The processor reads the first of these that is present.
  price: ['$.price', '$.coin_per_token', '$.coin_amount'],
  tokenAmount: '$.token_amount',
  coinType: { eventTypeArg: 0 },
};

/**
 * Souffl3's fixed-price market (`FixedPriceMarket::*Event<CoinType>`), as the official legacy
 * `nft_orderbooks` processor reads it (`parsers/souffle_parser.py`): no real transaction in the
 * fixtures, so unverified (docs/CONFORMANCE.md). No listing ids: a listing is its token and seller.
 * The cancel event does not name the owner; the processor takes the transaction's sender.
 */
export const souffl3: MarketplaceConfig = {
  name: 'souffl3',
  events: {
    ['0xf6994988bd40261af9431cd6dd3fcf765569719e66322c7a05cc78a89cd366d4::FixedPriceMarket::ListTokenEvent']:
      { kind: 'place_listing', fields: { ...token, seller: '$.token_owner' } },
    // The processor allows a cancel without a price (it stores none); the engine needs one, so a
    // cancel that names none is stored with 0 — it only closes the listing.
    ['0xf6994988bd40261af9431cd6dd3fcf765569719e66322c7a05cc78a89cd366d4::FixedPriceMarket::CancelListTokenEvent']:
      {
        kind: 'cancel_listing',
        fields: {
          ...token,
          price: ['$.price', '$.coin_per_token', '$.coin_amount', { const: '0' }],
          seller: { transactionSender: true },
        },
      },
    ['0xf6994988bd40261af9431cd6dd3fcf765569719e66322c7a05cc78a89cd366d4::FixedPriceMarket::BuyTokenEvent']: {
      kind: 'fill_listing',
      fields: { ...token, seller: '$.token_owner', buyer: '$.buyer' },
    },
  },
};
