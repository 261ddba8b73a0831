import { bluemove } from './bluemove';
import type { MarketplaceConfig } from './config';
import { mdqMarketplace } from './mdq';
import { souffl3 } from './souffl3';
import { topaz } from './topaz';
import { tradeportV1 } from './tradeport-v1';
import { tradeportV2 } from './tradeport-v2';
import { wagmi } from './wagmi';
import { wapal } from './wapal';

export { BLUEMOVE_ADDRESS, bluemove } from './bluemove';
export type {
  FieldSource,
  FieldUnit,
  MarketEventConfig,
  MarketField,
  MarketFieldSources,
  MarketplaceConfig,
} from './config';
export { mdqMarketplace } from './mdq';
export { APT, COLLECTION_METADATA, referenceShapeEvents, TOKEN_METADATA } from './reference-shape';
export { SOUFFL3_ADDRESS, souffl3 } from './souffl3';
export { TOPAZ_ADDRESS, TOPAZ_SECOND_ADDRESS, topaz } from './topaz';
export { tradeportV1 } from './tradeport-v1';
export { TRADEPORT_ADDRESS, tradeportV2 } from './tradeport-v2';
export { WAGMI_ADDRESS, wagmi } from './wagmi';
export { WAPAL_ADDRESS, wapal } from './wapal';

/** Every known marketplace, with mdq's own contract at `marketplaceAddress`. */
export function builtinMarketplaces(marketplaceAddress?: string): MarketplaceConfig[] {
  return [
    wapal,
    tradeportV1,
    tradeportV2,
    topaz,
    wagmi,
    souffl3,
    bluemove,
    mdqMarketplace(marketplaceAddress),
  ];
}
