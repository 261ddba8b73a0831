import type { ChainConfig } from './config';

const DAY_US = 86_400_000_000;

/** Blocks from `firstBlock` on (until the next segment): uniform cadence and size. */
interface Segment {
  firstBlock: number;
  firstStep: number;
  /** Timestamp of `firstBlock`. */
  baseUs: number;
  stepUs: number;
  /** User transactions per block. */
  size: number;
}

/** Where a chain version sits in its block. */
export type Slot =
  | { kind: 'block_metadata'; block: number }
  | { kind: 'validator'; block: number }
  | { kind: 'user'; block: number; step: number }
  | { kind: 'block_end'; block: number };

/**
 * Steps, blocks, versions and timestamps, as pure functions of the config.
 *
 * The simulator produces user transactions one *step* at a time. Steps are cut into blocks of
 * `blockSize` spread evenly over `days` so that the last initial block lands exactly on
 * `endTimeUs`; live blocks of `liveBlockSize` steps follow, one every `blockIntervalMs`.
 * On chain every block is laid out as on mainnet: its `block_metadata_transaction` first, then in
 * every `validatorEvery`-th block a `validator_transaction`, then the block's user
 * transactions, then the block-ending transaction (`block_epilogue_transaction`, or
 * `state_checkpoint_transaction` with `blockEnding: 'state_checkpoint'`). A version is the
 * position in that sequence, so the version of step s is s plus the system transactions before it.
 */
export class Timeline {
  readonly initialBlocks: number;
  readonly startUs: number;
  /** Versions of the initial chain: user transactions plus the system transactions of its blocks. */
  readonly initialVersions: number;
  /** µs between blocks of the initial chain (also the cadence of catch-up blocks). */
  readonly initialStepUs: number;
  /** Pieces of uniform cadence, in block order (see `resumes` in ChainOptions). */
  private readonly segments: Segment[];

  constructor(private readonly config: ChainConfig) {
    this.initialBlocks = Math.ceil(config.transactionsCount / config.blockSize);
    this.initialStepUs = Math.floor((config.days * DAY_US) / this.initialBlocks);
    this.startUs = config.endTimeUs - (this.initialBlocks - 1) * this.initialStepUs;
    const intervalUs = config.blockIntervalMs * 1000;
    this.segments = [
      {
        firstBlock: 0,
        firstStep: 0,
        baseUs: this.startUs,
        stepUs: this.initialStepUs,
        size: config.blockSize,
      },
      {
        firstBlock: this.initialBlocks,
        firstStep: config.transactionsCount,
        baseUs: config.endTimeUs + intervalUs,
        stepUs: intervalUs,
        size: config.liveBlockSize,
      },
    ];
    for (const resume of config.resumes) {
      const afterBlock = Math.max(resume.afterBlock, this.initialBlocks - 1);
      const atMs = resume.atMs;
      // Blocks up to `afterBlock` stay as they were; the time since then is filled with blocks at
      // the initial chain's cadence and size (a market as busy as the generated history), then
      // live blocks follow from the resume time.
      const lastUs = this.blockTimestampUs(afterBlock);
      const atUs = Math.max(atMs * 1000, lastUs);
      const catchUp = Math.floor((atUs - lastUs) / this.initialStepUs);
      let next = afterBlock + 1;
      const cut = this.segments.findIndex((g) => g.firstBlock >= next);
      const firstStep = this.firstStep(next);
      if (cut >= 0) this.segments.length = cut;
      if (catchUp > 0) {
        this.segments.push({
          firstBlock: next,
          firstStep,
          baseUs: lastUs + this.initialStepUs,
          stepUs: this.initialStepUs,
          size: config.blockSize,
        });
        next += catchUp;
      }
      this.segments.push({
        firstBlock: next,
        firstStep: firstStep + catchUp * config.blockSize,
        baseUs: atUs + intervalUs,
        stepUs: intervalUs,
        size: config.liveBlockSize,
      });
    }
    this.initialVersions = this.firstVersion(this.initialBlocks);
  }

  private segmentOfBlock(block: number): Segment {
    for (let i = this.segments.length - 1; i > 0; i--) {
      const g = this.segments[i] as Segment;
      if (g.firstBlock <= block) return g;
    }
    return this.segments[0] as Segment;
  }

  /** Block of simulator step `step`. */
  blockOfStep(step: number): number {
    for (let i = this.segments.length - 1; i >= 0; i--) {
      const g = this.segments[i] as Segment;
      if (g.firstStep <= step) return g.firstBlock + Math.floor((step - g.firstStep) / g.size);
    }
    return 0;
  }

  /** First simulator step of a block. */
  firstStep(block: number): number {
    const g = this.segmentOfBlock(block);
    return g.firstStep + (block - g.firstBlock) * g.size;
  }

  /** The last block whose timestamp is at or before `us` (at least the initial chain's last). */
  lastBlockAt(us: number): number {
    let block = this.initialBlocks - 1;
    this.segments.forEach((g, i) => {
      if (g.baseUs > us) return;
      const end = this.segments[i + 1]?.firstBlock ?? Number.POSITIVE_INFINITY;
      block = Math.max(block, Math.min(end - 1, g.firstBlock + Math.floor((us - g.baseUs) / g.stepUs)));
    });
    return block;
  }

  hasValidatorTransaction(block: number): boolean {
    const every = this.config.validatorEvery;
    return every > 0 && block % every === every - 1;
  }

  /** Version of a block's metadata transaction. */
  firstVersion(block: number): number {
    const every = this.config.validatorEvery;
    const validators = every > 0 ? Math.floor(block / every) : 0;
    return this.firstStep(block) + 2 * block + validators;
  }

  /** First and last version of a block (metadata .. block end). */
  blockRange(block: number): [number, number] {
    return [this.firstVersion(block), this.firstVersion(block + 1) - 1];
  }

  /** Chain version of simulator step `step`. */
  versionOfStep(step: number): number {
    const block = this.blockOfStep(step);
    const userStart = this.firstVersion(block) + 1 + (this.hasValidatorTransaction(block) ? 1 : 0);
    return userStart + step - this.firstStep(block);
  }

  /** Number of simulator steps whose transactions are at versions <= `version`. */
  stepsThrough(version: number): number {
    const slot = this.slot(version);
    if (slot.kind === 'user') return slot.step + 1;
    return this.firstStep(slot.kind === 'block_end' ? slot.block + 1 : slot.block);
  }

  /** Block holding a version. */
  blockOf(version: number): number {
    // Every block holds at least three versions, so the block is at most version / 3.
    let lo = 0;
    let hi = Math.floor(version / 3) + 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.firstVersion(mid) <= version) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  slot(version: number): Slot {
    const block = this.blockOf(version);
    const offset = version - this.firstVersion(block);
    if (offset === 0) return { kind: 'block_metadata', block };
    const validator = this.hasValidatorTransaction(block);
    if (validator && offset === 1) return { kind: 'validator', block };
    const step = this.firstStep(block) + offset - 1 - (validator ? 1 : 0);
    if (step < this.firstStep(block + 1)) return { kind: 'user', block, step };
    return { kind: 'block_end', block };
  }

  blockTimestampUs(block: number): number {
    const g = this.segmentOfBlock(block);
    return g.baseUs + (block - g.firstBlock) * g.stepUs;
  }

  /** Timestamp of simulator step `step` (its block's). */
  stepTimestampUs(step: number): number {
    return this.blockTimestampUs(this.blockOfStep(step));
  }

  /** Timestamp of a chain version (its block's). */
  timestampUs(version: number): number {
    return this.blockTimestampUs(this.blockOf(version));
  }

  epochOfBlock(block: number): number {
    // Mainnet epochs last two hours; mimic that so epoch numbers move over the chain.
    return 1 + Math.floor((this.blockTimestampUs(block) - this.startUs) / 7_200_000_000);
  }

  epochOf(version: number): number {
    return this.epochOfBlock(this.blockOf(version));
  }
}
