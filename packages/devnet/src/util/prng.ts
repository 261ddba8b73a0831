/**
 * sfc32: small, fast and good enough for a market simulation. The state is four 32-bit words so a
 * simulator checkpoint can copy it exactly and resume the same stream.
 */
export class Rng {
  constructor(
    private a: number,
    private b: number,
    private c: number,
    private d: number,
  ) {}

  static fromSeed(...parts: number[]): Rng {
    const rng = new Rng(0x9e3779b9, mixInts(parts), 0xb7e15162, 1);
    // The first outputs of sfc32 correlate with the seed words; discard them.
    for (let i = 0; i < 12; i++) rng.next();
    return rng;
  }

  static restore(words: readonly [number, number, number, number]): Rng {
    return new Rng(words[0], words[1], words[2], words[3]);
  }

  snapshot(): [number, number, number, number] {
    return [this.a, this.b, this.c, this.d];
  }

  /** Uniform u32. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  /** Standard normal (Box-Muller; one value per call keeps the state a plain 4-word tuple). */
  normal(): number {
    const u = 1 - this.float();
    const v = this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Index drawn from a cumulative weight table (last entry = total). */
  pickCumulative(cumulative: ArrayLike<number>, count = cumulative.length): number {
    const total = cumulative[count - 1] ?? 0;
    const x = this.float() * total;
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] ?? 0) > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Index drawn from a plain weight list. */
  pickWeighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let x = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i] ?? 0;
      if (x < 0) return i;
    }
    return weights.length - 1;
  }
}

/** murmur3 finalizer: a cheap bijective 32-bit mix. */
export function fmix32(input: number): number {
  let h = input | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Order-sensitive hash of small integers (seed, kind, index...) into one u32. */
export function mixInts(parts: readonly number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    // Fold in both halves so indexes above 2^32 (versions in a long live run) still differ.
    h = fmix32(h ^ (p >>> 0));
    h = fmix32(h ^ Math.floor(p / 4294967296));
  }
  return h;
}
