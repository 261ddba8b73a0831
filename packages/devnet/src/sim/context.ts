import { Rng } from '../util/prng';
import type { World } from '../world/world';
import type { SimState } from './state';

const MAX_WEIGHT_BUCKET = 256;
const DAY_US = 86_400_000_000;

/**
 * What every action needs while deciding one transaction: the world, the mutable state, the
 * random stream, the current time, and cached per-collection weights. The weights depend only on
 * the version bucket (collection creation is scheduled by version), so they are a pure function
 * and need not be checkpointed.
 */
export class SimContext {
  rng: Rng;
  nowUs = 0;
  nowSecs = 0;
  version = 0;
  private weightBucket = -1;
  /** Versions per weight bucket: small chains need finer buckets or early versions see no collection. */
  private readonly bucketSize: number;
  /** Cumulative activity weights over collections (trading interest). */
  activity: Float64Array;
  /** Cumulative mint weights (fresh collections mint hardest). */
  minting: Float64Array;

  constructor(
    readonly world: World,
    public state: SimState,
  ) {
    this.rng = Rng.restore(state.rng);
    this.bucketSize = Math.max(
      1,
      Math.min(MAX_WEIGHT_BUCKET, Math.floor(world.config.transactionsCount / 2000)),
    );
    this.activity = new Float64Array(world.collections.length);
    this.minting = new Float64Array(world.collections.length);
  }

  /** Called before each step. */
  enter(version: number): void {
    this.version = version;
    this.nowUs = this.world.timeline.stepTimestampUs(version);
    this.nowSecs = Math.floor(this.nowUs / 1e6);
    const bucket = Math.floor(version / this.bucketSize);
    if (bucket !== this.weightBucket) this.computeWeights(bucket);
  }

  private computeWeights(bucket: number): void {
    this.weightBucket = bucket;
    const bucketVersion = bucket * this.bucketSize;
    const t = this.world.timeline.stepTimestampUs(bucketVersion);
    let activity = 0;
    let minting = 0;
    for (const c of this.world.collections) {
      if (c.createVersion < bucketVersion) {
        const z = (t - c.hypeCenterUs) / c.hypeWidthUs;
        activity += c.popularity * (0.25 + 2.5 * Math.exp(-z * z));
        const age = (t - this.world.timeline.stepTimestampUs(c.createVersion)) / (4 * DAY_US);
        minting += c.lootbox >= 0 ? 0 : c.popularity * (0.2 + 3 * Math.exp(-age));
      }
      this.activity[c.index] = activity;
      this.minting[c.index] = minting;
    }
  }

  /** A collection weighted by trading interest, or -1 before any exists. */
  pickActiveCollection(): number {
    const n = this.activity.length;
    if ((this.activity[n - 1] ?? 0) <= 0) return -1;
    return this.rng.pickCumulative(this.activity);
  }

  pickMintCollection(): number {
    const n = this.minting.length;
    if ((this.minting[n - 1] ?? 0) <= 0) return -1;
    return this.rng.pickCumulative(this.minting);
  }

  /** Users are skewed: a few whales act far more than the long tail. */
  pickUser(): number {
    const a = this.world.config.accounts;
    return Math.min(a - 1, Math.floor(a * this.rng.float() ** 1.7));
  }

  pickOtherUser(not: number): number {
    const u = this.pickUser();
    return u === not ? (u + 1) % this.world.config.accounts : u;
  }

  /** The collection's market price level (octas) at the current time. */
  priceLevel(collection: number): number {
    const c = this.world.collections[collection];
    if (c === undefined) return 1e8;
    const span = this.world.config.endTimeUs - this.world.timeline.startUs;
    const x =
      c.priceAmplitude * Math.sin((2 * Math.PI * this.nowUs) / c.pricePeriodUs + c.pricePhase) +
      (c.priceDrift * (this.nowUs - this.world.timeline.startUs)) / span;
    return c.basePrice * Math.exp(x);
  }

  /** Rounds to 0.001 APT, at least 0.001 APT. */
  roundPrice(octas: number): number {
    return Math.max(1e5, Math.round(octas / 1e5) * 1e5);
  }

  nextSeq(sender: number): number {
    const s = this.state.seq[sender] ?? 0;
    this.state.seq[sender] = s + 1;
    return s;
  }

  /** A random live token of the collection satisfying `ok`, or -1 after a few misses. */
  pickToken(collection: number, ok: (token: number) => boolean, tries = 6): number {
    const tokens = this.state.collTokens[collection];
    if (tokens === undefined || tokens.length === 0) return -1;
    for (let i = 0; i < tries; i++) {
      const t = tokens[this.rng.int(tokens.length)] as number;
      if ((this.state.tokOwner[t] ?? -1) >= 0 && ok(t)) return t;
    }
    return -1;
  }
}

export function bump(a: Uint32Array, i: number): number {
  const v = a[i] ?? 0;
  a[i] = v + 1;
  return v;
}
