export * from './address';
export { type CoinMove, decodeCoinMoves, sellerFundedBuyer } from './coin-flows';
export { DecodeError } from './decode-error';
export { type AptosTransaction, type DecodeOptions, decodeTransaction } from './decode-transaction';
export type * from './domain';
export { isSaleKind, SALE_KINDS, type SaleKind } from './market-kinds';
export { compileMarketplaces } from './marketplaces/engine';
export * from './marketplaces/index';
export {
  decodeV1PropertyMap,
  decodeV1PropertyValue,
  decodeV2PropertyMap,
  decodeV2PropertyValue,
} from './property-map';
export { createRelevanceFilter, noFacts, type RelevanceFilter } from './relevance';
export { v1CollectionId, v1TokenDataId } from './v1-ids';
