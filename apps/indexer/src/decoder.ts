import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import {
  builtinMarketplaces,
  createRelevanceFilter,
  decodeTransaction,
  type MarketplaceConfig,
  noFacts,
} from '@mdq/chain';
import { transactionStreamFilter } from '@mdq/chain/stream';
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

function decodeOptionsFor(options: DecoderOptions) {
  // One array instance per decoder: the decoder compiles configs once per array.
  const marketplaces = [...builtinMarketplaces(options.marketplaceAddress), ...(options.marketplaces ?? [])];
  return { marketplaces, lootboxAddress: options.lootboxAddress };
}

/** The Transaction Stream filter for what this decoder reads (the early skip's description). */
export function streamFilterFor(options: DecoderOptions) {
  return transactionStreamFilter(decodeOptionsFor(options));
}

export function createDecoder(options: DecoderOptions): Decoder {
  const decodeOptions = decodeOptionsFor(options);
  if (options.prefilter === false) return (tx: TransactionResponse) => decodeTransaction(tx, decodeOptions);
  const relevant = createRelevanceFilter(decodeOptions);
  return (tx: TransactionResponse) =>
    (relevant(tx) ? null : noFacts(tx)) ?? decodeTransaction(tx, decodeOptions);
}
