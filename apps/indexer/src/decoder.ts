import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import { builtinMarketplaces, decodeTransaction, type MarketplaceConfig } from '@mdq/chain';
import type { Decoder } from './run-indexer';

export interface DecoderOptions {
  marketplaceAddress: string;
  lootboxAddress: string;
  /** Extra marketplace configs beside the built-in ones (adding a marketplace is adding a config). */
  marketplaces?: readonly MarketplaceConfig[];
}

export function createDecoder(options: DecoderOptions): Decoder {
  // One array instance for the process: the decoder compiles configs once per array.
  const marketplaces = [...builtinMarketplaces(options.marketplaceAddress), ...(options.marketplaces ?? [])];
  const decodeOptions = { marketplaces, lootboxAddress: options.lootboxAddress };
  return (tx: TransactionResponse) => decodeTransaction(tx, decodeOptions);
}
