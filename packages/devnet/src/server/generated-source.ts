import type { DevnetChain } from '../chain/devnet-chain';
import type { RestTransaction } from '../render/rest-types';
import { hash32 } from '../util/hex';
import type { BlockInfo, ChainSource, LedgerState } from './source';

export interface LiveOptions {
  /** ms between new blocks; 0 disables live growth. */
  blockIntervalMs: number;
}

/**
 * Serves the generated chain: the ledger starts at the end of the initial chain and grows by one
 * block of `liveBlockSize` transactions every `blockIntervalMs`.
 */
export class GeneratedSource implements ChainSource {
  private ledgerVersion: number;
  private readonly timer: NodeJS.Timeout | null;

  constructor(
    readonly chain: DevnetChain,
    live: LiveOptions,
  ) {
    this.ledgerVersion = chain.config.transactionsCount - 1;
    this.timer =
      live.blockIntervalMs > 0
        ? setInterval(() => {
            this.ledgerVersion += chain.config.liveBlockSize;
          }, live.blockIntervalMs)
        : null;
    this.timer?.unref();
  }

  /** Adds blocks immediately (tests use this instead of waiting for the timer). */
  advance(blocks = 1): void {
    this.ledgerVersion += blocks * this.chain.config.liveBlockSize;
  }

  ledger(): LedgerState {
    const t = this.chain.world.timeline;
    const c = this.chain.config;
    return {
      chainId: c.chainId,
      ledgerVersion: this.ledgerVersion,
      oldestVersion: c.oldestVersion,
      ledgerTimestampUs: String(t.timestampUs(this.ledgerVersion)),
      epoch: t.epochOf(this.ledgerVersion),
      blockHeight: t.blockOf(this.ledgerVersion),
      oldestBlockHeight: t.blockOf(c.oldestVersion),
    };
  }

  transactions(start: number, limit: number): RestTransaction[] {
    const end = Math.min(start + limit, this.ledgerVersion + 1);
    return end > start ? this.chain.range(start, end - start) : [];
  }

  transaction(version: number): RestTransaction | null {
    return version <= this.ledgerVersion ? this.chain.transaction(version) : null;
  }

  blockByVersion(version: number): BlockInfo | null {
    if (version > this.ledgerVersion) return null;
    return this.blockByHeight(this.chain.world.timeline.blockOf(version));
  }

  blockByHeight(height: number): BlockInfo | null {
    const t = this.chain.world.timeline;
    const [first, last] = t.blockRange(height);
    if (first > this.ledgerVersion) return null;
    return {
      height,
      hash: hash32(this.chain.config.seed, height, 0x626c6b),
      timestampUs: String(t.blockTimestampUs(height)),
      firstVersion: first,
      // A live block is published whole, so the ledger never stops inside one.
      lastVersion: Math.min(last, this.ledgerVersion),
    };
  }

  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
  }
}
