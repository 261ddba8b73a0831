import { Aptos, AptosConfig, Network, type TransactionResponse } from '@aptos-labs/ts-sdk';

export interface ChainTip {
  ledgerVersion: number;
  oldestVersion: number;
  /** The network's chain id, when the source knows it (a fullnode's ledger info does). */
  chainId?: number;
}

/**
 * Where the indexer reads transactions from. The fullnode REST source is the first; a gRPC
 * transaction-stream source can implement the same two calls without touching the decoder.
 */
export interface ChainSource {
  /**
   * Versions may legitimately skip (a recorded chain of chosen transactions). Every other source
   * must answer contiguous versions: the follow loop refuses a page that skips one. Read after the
   * first `tip()`, which may learn it (fullnodeSource: the ledger info's `"sparse": true`).
   */
  readonly sparse?: boolean;
  tip(): Promise<ChainTip>;
  /** Transactions with version >= start in version order, at most `limit`; may return fewer. */
  fetch(start: number, limit: number): Promise<TransactionResponse[]>;
}

/** A fullnode answers at most 100 transactions per request. */
const PAGE = 100;

export function fullnodeSource(
  fullnodeUrl: string,
  options: { concurrency?: number; sparse?: boolean } = {},
): ChainSource {
  const aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: fullnodeUrl }));
  const concurrency = options.concurrency ?? 4;
  let knownLedger = -1;
  let sparse = options.sparse === true;

  const tip = async (): Promise<ChainTip> => {
    const info = await aptos.getLedgerInfo();
    knownLedger = Number(info.ledger_version);
    // A node serving a recorded chain (`mdq devnet --transactions`) says its versions skip; the
    // follow loop reads `sparse` after the first tip, so the holes are followed, not a gap.
    if ((info as { sparse?: unknown }).sparse === true) sparse = true;
    return {
      ledgerVersion: knownLedger,
      oldestVersion: Number(info.oldest_ledger_version),
      chainId: info.chain_id,
    };
  };

  const page = async (offset: number, limit: number): Promise<TransactionResponse[]> => {
    try {
      return await aptos.getTransactions({ options: { offset, limit } });
    } catch (error) {
      // A version past the ledger is "not found": at the tip that just means nothing new yet.
      if ((error as { status?: number }).status === 404) return [];
      throw error;
    }
  };

  return {
    get sparse() {
      return sparse;
    },
    tip,
    async fetch(start, limit) {
      if (start > knownLedger) {
        // At the tip, ask for the next page directly: the SDK caches ledger info for seconds, so
        // a fresh tip() would lag the chain.
        const next = await page(start, Math.min(PAGE, limit));
        const last = next.at(-1);
        if (last) knownLedger = Math.max(knownLedger, versionOf(last));
        return next;
      }
      // Pages up to the known ledger version are fetched a few at a time, then stitched in
      // order; a short page (a gap in a recorded chain, or the tip) ends the batch so versions
      // stay in order as received.
      const end = Math.min(start + limit - 1, knownLedger);
      const offsets: number[] = [];
      for (let offset = start; offset <= end; offset += PAGE) offsets.push(offset);
      const out: TransactionResponse[] = [];
      let next = start;
      for (let i = 0; i < offsets.length; i += concurrency) {
        const group = offsets.slice(i, i + concurrency);
        const pages = await Promise.all(
          group.map((offset) => page(offset, Math.min(PAGE, end - offset + 1))),
        );
        let short = false;
        for (const [j, txs] of pages.entries()) {
          for (const tx of txs) {
            const v = versionOf(tx);
            if (v >= next) {
              out.push(tx);
              next = v + 1;
            }
          }
          const offset = group[j] as number;
          if (txs.length < Math.min(PAGE, end - offset + 1)) {
            short = true;
            break;
          }
        }
        if (short) break;
      }
      return out.slice(0, limit);
    },
  };
}

export function versionOf(tx: TransactionResponse): number {
  return 'version' in tx ? Number(tx.version) : -1;
}
