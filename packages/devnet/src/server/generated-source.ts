import type { DevnetChain } from '../chain/devnet-chain';
import type { RestTransaction } from '../render/rest-types';
import { hash32 } from '../util/hex';
import type { BlockInfo, ChainSource, LedgerState } from './source';

export interface LiveOptions {
  /** ms between new blocks; 0 disables live growth. */
  blockIntervalMs: number;
  /** Publish at once every block with a timestamp at or before this (µs); default: the initial chain. */
  publishUntilUs?: number;
}

/**
 * Serves the generated chain: the ledger starts at the end of the initial chain and grows by one
 * block (metadata, `liveBlockSize` user transactions, block end) every `blockIntervalMs`. The
 * ledger always ends on a whole block, as a fullnode commits blocks whole.
 */
export class GeneratedSource implements ChainSource {
  /** Height of the last published block. */
  private ledgerBlock: number;
  private readonly timer: NodeJS.Timeout | null;

  constructor(
    readonly chain: DevnetChain,
    live: LiveOptions,
  ) {
    const t = chain.world.timeline;
    this.ledgerBlock =
      live.publishUntilUs === undefined ? t.initialBlocks - 1 : t.lastBlockAt(live.publishUntilUs);
    this.timer =
      live.blockIntervalMs > 0
        ? setInterval(() => {
            this.ledgerBlock += 1;
          }, live.blockIntervalMs)
        : null;
    this.timer?.unref();
  }

  /** Adds blocks immediately (tests use this instead of waiting for the timer). */
  advance(blocks = 1): void {
    this.ledgerBlock += blocks;
  }

  private get ledgerVersion(): number {
    return this.chain.world.timeline.blockRange(this.ledgerBlock)[1];
  }

  ledger(): LedgerState {
    const t = this.chain.world.timeline;
    const c = this.chain.config;
    return {
      chainId: c.chainId,
      ledgerVersion: this.ledgerVersion,
      oldestVersion: c.oldestVersion,
      ledgerTimestampUs: String(t.blockTimestampUs(this.ledgerBlock)),
      epoch: t.epochOfBlock(this.ledgerBlock),
      blockHeight: this.ledgerBlock,
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
    if (height > this.ledgerBlock) return null;
    const t = this.chain.world.timeline;
    const [first, last] = t.blockRange(height);
    return {
      height,
      // The block's id, as its block_metadata_transaction carries it.
      hash: hash32(this.chain.config.seed, height, 0x626c6b),
      timestampUs: String(t.blockTimestampUs(height)),
      firstVersion: first,
      lastVersion: last,
    };
  }

  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
  }
}
