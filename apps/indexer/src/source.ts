import { Aptos, AptosConfig, Network, type TransactionResponse } from '@aptos-labs/ts-sdk';

export interface ChainTip {
  ledgerVersion: number;
  oldestVersion: number;
}

/**
 * Where the indexer reads transactions from. The fullnode REST source is the first; a gRPC
 * transaction-stream source can implement the same two calls without touching the decoder.
 */
export interface ChainSource {
  tip(): Promise<ChainTip>;
  /** Transactions with version >= start in version order, at most `limit`; may return fewer. */
  fetch(start: number, limit: number): Promise<TransactionResponse[]>;
}

/** A fullnode answers at most 100 transactions per request. */
const PAGE = 100;

export function fullnodeSource(fullnodeUrl: string, options: { concurrency?: number } = {}): ChainSource {
  const aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: fullnodeUrl }));
  const concurrency = options.concurrency ?? 4;
  return {
    async tip() {
      const info = await aptos.getLedgerInfo();
      return {
        ledgerVersion: Number(info.ledger_version),
        oldestVersion: Number(info.oldest_ledger_version),
      };
    },
    async fetch(start, limit) {
      // Pages are fetched a few at a time, then stitched in order; a short page (a gap in a
      // recorded chain, or the tip) ends the batch so that versions stay contiguous as received.
      const out: TransactionResponse[] = [];
      let next = start;
      while (out.length < limit) {
        const starts: number[] = [];
        for (let i = 0; i < concurrency && out.length + starts.length * PAGE < limit; i++) {
          starts.push(next + i * PAGE);
        }
        const pages = await Promise.all(
          starts.map((offset) =>
            aptos.getTransactions({ options: { offset, limit: Math.min(PAGE, limit - out.length) } }),
          ),
        );
        let short = false;
        for (const page of pages) {
          for (const tx of page) {
            const v = versionOf(tx);
            if (v >= next) {
              out.push(tx);
              next = v + 1;
            }
          }
          if (page.length < PAGE) {
            short = true;
            break;
          }
        }
        if (short || pages.length === 0) break;
      }
      return out.slice(0, limit);
    },
  };
}

export function versionOf(tx: TransactionResponse): number {
  return 'version' in tx ? Number(tx.version) : -1;
}
