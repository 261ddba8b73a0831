import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import {
  builtinMarketplaces,
  createRelevanceFilter,
  decodeTransaction,
  type MarketplaceConfig,
  noFacts,
} from '@mdq/chain';
import type { Decoder } from './run-indexer';

export interface DecoderOptions {
  marketplaceAddress: string;
  lootboxAddress: string;
  /** Extra marketplace configs beside the built-in ones (adding a marketplace is adding a config). */
  marketplaces?: readonly MarketplaceConfig[];
  /**
   * Recognise transactions that touch no token, marketplace or lootbox module by their event and
   * write-set types, and skip their full decoding (default true; false for comparisons).
   */
  prefilter?: boolean;
}

export function createDecoder(options: DecoderOptions): Decoder {
  // One array instance for the process: the decoder compiles configs once per array.
  const marketplaces = [...builtinMarketplaces(options.marketplaceAddress), ...(options.marketplaces ?? [])];
  const decodeOptions = { marketplaces, lootboxAddress: options.lootboxAddress };
  if (options.prefilter === false) return (tx: TransactionResponse) => decodeTransaction(tx, decodeOptions);
  const relevant = createRelevanceFilter(decodeOptions);
  return (tx: TransactionResponse) =>
    (relevant(tx) ? null : noFacts(tx)) ?? decodeTransaction(tx, decodeOptions);
}
