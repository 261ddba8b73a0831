import type { MarketplaceConfig } from './config';
import { APT, referenceShapeEvents } from './reference-shape';

export const WAGMI_ADDRESS = '0x1645ab97846c17347b0c48ce175dd590952c9642907168f8556316be4920ab03';

/**
 * Wagmi runs the reference marketplace unchanged (module events `events::ListingPlaced`, …), as
 * in the official `example/wagmi.yaml`. No real transactions in the fixtures: mapping unverified.
 */
export const wagmi: MarketplaceConfig = {
  name: 'wagmi',
  events: referenceShapeEvents({
    types: {
      ListingPlaced:
        '0x1645ab97846c17347b0c48ce175dd590952c9642907168f8556316be4920ab03::events::ListingPlaced',
      ListingCanceled:
        '0x1645ab97846c17347b0c48ce175dd590952c9642907168f8556316be4920ab03::events::ListingCanceled',
      ListingFilled:
        '0x1645ab97846c17347b0c48ce175dd590952c9642907168f8556316be4920ab03::events::ListingFilled',
      TokenOfferPlaced:
        '0x1645ab97846c17347b0c48ce175dd590952c9642907168f8556316be4920ab03::events::TokenOfferPlaced',
      TokenOfferCanceled:
        '0x1645ab97846c17347b0c48ce175dd590952c9642907168f8556316be4920ab03::events::TokenOfferCanceled',
      TokenOfferFilled:
        '0x1645ab97846c17347b0c48ce175dd590952c9642907168f8556316be4920ab03::events::TokenOfferFilled',
      CollectionOfferPlaced:
        '0x1645ab97846c17347b0c48ce175dd590952c9642907168f8556316be4920ab03::events::CollectionOfferPlaced',
      CollectionOfferCanceled:
        '0x1645ab97846c17347b0c48ce175dd590952c9642907168f8556316be4920ab03::events::CollectionOfferCanceled',
      CollectionOfferFilled:
        '0x1645ab97846c17347b0c48ce175dd590952c9642907168f8556316be4920ab03::events::CollectionOfferFilled',
    },
    coinType: { const: APT },
  }),
};
