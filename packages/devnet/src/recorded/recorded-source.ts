import type { RestTransaction } from '../render/rest-types';
import type { BlockInfo, ChainSource, LedgerState } from '../server/source';
import { hash32 } from '../util/hex';
import type { RecordedTransaction } from './load-recorded';

/**
 * Serves recorded transactions, whose versions are sparse. Gap rule: a range request returns the
 * next recorded transactions with version >= start (up to limit), so an indexer that continues
 * from "last version received + 1" walks every recorded transaction; a by_version lookup inside a
 * gap is a 404. The ledger version is the highest recorded version. The ledger info says so
 * (`"sparse": true`, header `x-mdq-sparse: true`), so an indexer follows the holes instead of
 * stopping at the first one as a gap.
 */
export class RecordedSource implements ChainSource {
  constructor(
    private readonly txs: RecordedTransaction[],
    private readonly chainId = 1,
  ) {
    if (txs.length === 0) throw new Error('no recorded transactions found');
  }

  private last(): RecordedTransaction {
    return this.txs[this.txs.length - 1] as RecordedTransaction;
  }

  ledger(): LedgerState {
    const last = this.last();
    return {
      chainId: this.chainId,
      ledgerVersion: last.version,
      oldestVersion: 0,
      ledgerTimestampUs: String((last.tx as { timestamp?: unknown }).timestamp ?? '0'),
      epoch: last.epoch ?? 0,
      blockHeight: last.blockHeight ?? 0,
      oldestBlockHeight: 0,
      sparse: true,
    };
  }

  /** Index of the first recorded transaction with version >= v. */
  private lowerBound(v: number): number {
    let lo = 0;
    let hi = this.txs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.txs[mid] as RecordedTransaction).version < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  transactions(start: number, limit: number): RestTransaction[] {
    const i = this.lowerBound(start);
    return this.txs.slice(i, i + limit).map((r) => r.tx);
  }

  private find(version: number): RecordedTransaction | null {
    const r = this.txs[this.lowerBound(version)];
    return r !== undefined && r.version === version ? r : null;
  }

  transaction(version: number): RestTransaction | null {
    return this.find(version)?.tx ?? null;
  }

  /** Recorded blocks are known only through their one recorded transaction. */
  blockByVersion(version: number): BlockInfo | null {
    const r = this.find(version);
    if (r === null) return null;
    return {
      height: r.blockHeight ?? 0,
      hash: hash32(r.version, r.blockHeight ?? 0, 0x626c6b),
      timestampUs: String((r.tx as { timestamp?: unknown }).timestamp ?? '0'),
      firstVersion: r.version,
      lastVersion: r.version,
    };
  }

  blockByHeight(height: number): BlockInfo | null {
    const r = this.txs.find((t) => t.blockHeight === height);
    return r === undefined ? null : this.blockByVersion(r.version);
  }

  close(): void {}
}
