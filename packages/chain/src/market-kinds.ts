import type { MarketKind } from './domain';

/**
 * The market kinds that are sales: a token changed hands for a price. The one list the decoder
 * (seller-funded check), the wash flags, rankings, analytics and exports all read.
 */
export const SALE_KINDS = [
  'fill_listing',
  'fill_token_offer',
  'fill_collection_offer',
] as const satisfies readonly MarketKind[];

export type SaleKind = (typeof SALE_KINDS)[number];

export function isSaleKind(kind: string): kind is SaleKind {
  return (SALE_KINDS as readonly string[]).includes(kind);
}
