import type { ChainConfig } from './config';

const DAY_US = 86_400_000_000;

/**
 * Version -> block -> timestamp, as pure functions of the config. The initial chain is cut into
 * blocks of `blockSize` spread evenly over `days` so that its last block lands exactly on
 * `endTimeUs`; live blocks of `liveBlockSize` follow, one every `blockIntervalMs`.
 */
export class Timeline {
  readonly initialBlocks: number;
  readonly startUs: number;
  private readonly stepUs: number;

  constructor(private readonly config: ChainConfig) {
    this.initialBlocks = Math.ceil(config.transactionsCount / config.blockSize);
    this.stepUs = Math.floor((config.days * DAY_US) / this.initialBlocks);
    this.startUs = config.endTimeUs - (this.initialBlocks - 1) * this.stepUs;
  }

  blockOf(version: number): number {
    const { transactionsCount, blockSize, liveBlockSize } = this.config;
    if (version < transactionsCount) return Math.floor(version / blockSize);
    return this.initialBlocks + Math.floor((version - transactionsCount) / liveBlockSize);
  }

  /** First and last version of a block. */
  blockRange(block: number): [number, number] {
    const { transactionsCount, blockSize, liveBlockSize } = this.config;
    if (block < this.initialBlocks) {
      const first = block * blockSize;
      return [first, Math.min(first + blockSize, transactionsCount) - 1];
    }
    const first = transactionsCount + (block - this.initialBlocks) * liveBlockSize;
    return [first, first + liveBlockSize - 1];
  }

  blockTimestampUs(block: number): number {
    if (block < this.initialBlocks) return this.startUs + block * this.stepUs;
    return this.config.endTimeUs + (block - this.initialBlocks + 1) * this.config.blockIntervalMs * 1000;
  }

  timestampUs(version: number): number {
    return this.blockTimestampUs(this.blockOf(version));
  }

  epochOf(version: number): number {
    // Mainnet epochs last two hours; mimic that so epoch numbers move over the chain.
    return 1 + Math.floor((this.timestampUs(version) - this.startUs) / 7_200_000_000);
  }
}
