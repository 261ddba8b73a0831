import { DEFAULT_LOOTBOX_ADDRESS, DEFAULT_MARKETPLACE_ADDRESS, normalizeAddress } from '@mdq/chain';

export type Preset = 'tiny' | 'small' | 'medium' | 'large';

/**
 * The transaction that ends every block: `epilogue` = `block_epilogue_transaction` (AIP-88, mainnet
 * today); `state_checkpoint` = the older `state_checkpoint_transaction` it replaced.
 */
export type BlockEnding = 'epilogue' | 'state_checkpoint';
export const BLOCK_ENDINGS: readonly BlockEnding[] = ['epilogue', 'state_checkpoint'];

/** Transactions in the initial chain per preset; `large` is the benchmark scale. */
export const PRESET_TRANSACTIONS: Readonly<Record<Preset, number>> = {
  tiny: 600,
  small: 5_000,
  medium: 100_000,
  large: 1_000_000,
};

/** Where a chain built without a server says its documents are: the default `mdq devnet` address. */
const DEFAULT_METADATA_ORIGIN = 'http://127.0.0.1:8090';

/** 2026-01-01T00:00:00Z: the fixed default "now", so the default chain is byte-for-byte stable. */
export const DEFAULT_END_TIME_MS = Date.UTC(2026, 0, 1);

export interface ChainOptions {
  /** PRNG seed (u32). Same seed + same options => same chain, byte for byte. Default 1. */
  seed?: number;
  /** Size preset; ignored when `transactionsCount` is set. Default `small`. */
  preset?: Preset;
  /**
   * Exact number of user transactions in the initial chain; the chain's versions also hold each
   * block's system transactions (see Timeline).
   */
  transactionsCount?: number;
  /** Days the initial chain spans, ending at `endTime`. Default 45 (so 30-day windows are full). */
  days?: number;
  /** Timestamp (ms since epoch) of the last initial transaction: the facts' "now". Default DEFAULT_END_TIME_MS. */
  endTimeMs?: number;
  /** Transactions per block in the initial chain (all share the block timestamp). Default 4. */
  blockSize?: number;
  /** Live growth: transactions per new block. Default 10. */
  liveBlockSize?: number;
  /** Live growth: ms between new blocks; also the timestamp step of live blocks. Default 1000. */
  blockIntervalMs?: number;
  /** Versions below this answer 410 (simulated pruning). Default 0. */
  oldestVersion?: number;
  marketplaceAddress?: string;
  lootboxAddress?: string;
  chainId?: number;
  /**
   * Share (0 to 0.95) of versions that are APT transfers touching no NFT, as most of mainnet is.
   * Default 0: the NFT-only chain.
   */
  noiseShare?: number;
  /**
   * The origin (`http://host:port`) every collection and token URI names: the devnet server serves
   * the documents and images there (`/metadata/...`). The server sets it to its own address.
   * Default DEFAULT_METADATA_ORIGIN.
   */
  metadataOrigin?: string;
  /** The transaction ending each block. Default `epilogue`. */
  blockEnding?: BlockEnding;
  /**
   * Every this many blocks one carries a `validator_transaction` (a JWK update) after its metadata,
   * as mainnet does now and then; 0 = none. Default 100.
   */
  validatorEvery?: number;
  /**
   * Restarts of a chain that follows the wall clock (the embedded devnet of `mdq start`), in
   * order: after block `afterBlock` (the last block anyone has read) the chain resumes at `atMs`.
   * The time in between is filled with blocks at the initial chain's cadence and size, then live
   * blocks follow every `blockIntervalMs` from `atMs`. The chain stays a pure function of the
   * options, these included. Default none.
   */
  resumes?: readonly ChainResume[];
}

export interface ChainResume {
  afterBlock: number;
  atMs: number;
}

export interface ChainConfig {
  seed: number;
  transactionsCount: number;
  days: number;
  endTimeUs: number;
  blockSize: number;
  liveBlockSize: number;
  blockIntervalMs: number;
  oldestVersion: number;
  /** Long form. */
  marketplaceAddress: string;
  /** Long form. */
  lootboxAddress: string;
  chainId: number;
  noiseShare: number;
  metadataOrigin: string;
  blockEnding: BlockEnding;
  validatorEvery: number;
  resumes: readonly ChainResume[];
  accounts: number;
  collections: number;
  lootboxes: number;
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, x));
}

function share(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0 || value > 0.95)
    throw new Error(`${name} must be between 0 and 0.95`);
  return value;
}

function blockEnding(value: string): BlockEnding {
  const found = BLOCK_ENDINGS.find((e) => e === value);
  if (found === undefined) throw new Error(`blockEnding must be one of ${BLOCK_ENDINGS.join(', ')}`);
  return found;
}

function nonNegativeInt(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
}

function positiveInt(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

export function resolveConfig(options: ChainOptions = {}): ChainConfig {
  const count = positiveInt(
    'transactionsCount',
    options.transactionsCount ?? PRESET_TRANSACTIONS[options.preset ?? 'small'],
  );
  const seed = (options.seed ?? 1) >>> 0;
  const endTimeMs = options.endTimeMs ?? DEFAULT_END_TIME_MS;
  if (!Number.isSafeInteger(endTimeMs) || endTimeMs <= 0)
    throw new Error('endTimeMs must be a positive integer');
  const collections = Math.round(clamp(Math.sqrt(count) / 8, 5, 150));
  return {
    seed,
    transactionsCount: count,
    days: positiveInt('days', options.days ?? 45),
    endTimeUs: endTimeMs * 1000,
    blockSize: positiveInt('blockSize', options.blockSize ?? 4),
    liveBlockSize: positiveInt('liveBlockSize', options.liveBlockSize ?? 10),
    blockIntervalMs: positiveInt('blockIntervalMs', options.blockIntervalMs ?? 1000),
    oldestVersion: Math.max(0, Math.floor(options.oldestVersion ?? 0)),
    marketplaceAddress: normalizeAddress(options.marketplaceAddress ?? DEFAULT_MARKETPLACE_ADDRESS),
    lootboxAddress: normalizeAddress(options.lootboxAddress ?? DEFAULT_LOOTBOX_ADDRESS),
    chainId: options.chainId ?? 4,
    noiseShare: share('noiseShare', options.noiseShare ?? 0),
    metadataOrigin: new URL(options.metadataOrigin ?? DEFAULT_METADATA_ORIGIN).origin,
    blockEnding: blockEnding(options.blockEnding ?? 'epilogue'),
    validatorEvery: nonNegativeInt('validatorEvery', options.validatorEvery ?? 100),
    resumes: (options.resumes ?? []).map((r) => ({
      afterBlock: nonNegativeInt('resumes[].afterBlock', r.afterBlock),
      atMs: positiveInt('resumes[].atMs', r.atMs),
    })),
    accounts: Math.round(clamp(count / 40, 40, 40_000)),
    collections,
    lootboxes: Math.round(clamp(collections / 5, 3, 30)),
  };
}
