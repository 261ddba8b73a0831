import type { RestTransaction } from '../render/rest-types';

export interface LedgerState {
  chainId: number;
  ledgerVersion: number;
  oldestVersion: number;
  ledgerTimestampUs: string;
  epoch: number;
  blockHeight: number;
  oldestBlockHeight: number;
  /** Versions skip on purpose (recorded mode): said in the ledger info and the `x-mdq-sparse` header. */
  sparse?: boolean;
}

export interface BlockInfo {
  height: number;
  hash: string;
  timestampUs: string;
  firstVersion: number;
  lastVersion: number;
}

/** What the fullnode routes read; implemented by the generated chain and by recorded files. */
export interface ChainSource {
  ledger(): LedgerState;
  /** Up to `limit` transactions with version >= start (callers check start against the ledger first). */
  transactions(start: number, limit: number): RestTransaction[];
  /** The transaction at exactly `version`, or null (a gap in recorded mode). */
  transaction(version: number): RestTransaction | null;
  blockByVersion(version: number): BlockInfo | null;
  blockByHeight(height: number): BlockInfo | null;
  close(): void;
}
