import { bcsStringHex } from '../util/hex';
import { Rng } from '../util/prng';
import { TRAIT_TYPES } from './names';

/** A collection's trait layout: value frequencies follow a Zipf-like skew so rarity differs. */
export interface TraitSchema {
  keys: string[];
  values: string[][];
  /** BCS hex (no 0x) of each value, for property maps. */
  valueHex: string[][];
  cumulative: Float64Array[];
  /** Probability that the trait is absent from a token (OpenRarity's "trait absent" case). */
  absentProbability: number[];
  /** Expected -log(probability) of a token's trait combination; centres the rarity price boost. */
  entropy: number;
  probabilities: number[][];
}

export function buildTraitSchema(rng: Rng): TraitSchema {
  const count = rng.range(4, TRAIT_TYPES.length);
  const start = rng.int(TRAIT_TYPES.length);
  const schema: TraitSchema = {
    keys: [],
    values: [],
    valueHex: [],
    cumulative: [],
    absentProbability: [],
    entropy: 0,
    probabilities: [],
  };
  for (let i = 0; i < count; i++) {
    const type = TRAIT_TYPES[(start + i) % TRAIT_TYPES.length];
    if (type === undefined) continue;
    const skew = 0.7 + rng.float() * 1.1;
    const weights = type.values.map((_, r) => 1 / (r + 1) ** skew);
    const total = weights.reduce((a, b) => a + b, 0);
    const probabilities = weights.map((w) => w / total);
    const cumulative = new Float64Array(weights.length);
    let acc = 0;
    for (let r = 0; r < weights.length; r++) {
      acc += weights[r] ?? 0;
      cumulative[r] = acc;
    }
    const absent = type.key === 'Accessory' || type.key === 'Aura' ? 0.25 + rng.float() * 0.4 : 0;
    schema.keys.push(type.key);
    schema.values.push([...type.values]);
    schema.valueHex.push(type.values.map(bcsStringHex));
    schema.cumulative.push(cumulative);
    schema.absentProbability.push(absent);
    schema.probabilities.push(probabilities);
    for (const p of probabilities) schema.entropy -= (1 - absent) * p * Math.log(p * (1 - absent));
    if (absent > 0) schema.entropy -= absent * Math.log(absent);
  }
  return schema;
}

export interface TokenTraits {
  /** Value index per trait key, -1 when absent. */
  values: number[];
  /** Price multiplier from rarity (rarer => pricier), around 1. */
  rarityBoost: number;
}

/** Traits of one token: a pure function of (seed, collection, serial), so nothing is stored. */
export function drawTraits(
  seed: number,
  collection: number,
  serial: number,
  schema: TraitSchema,
): TokenTraits {
  const rng = Rng.fromSeed(seed, 0x7472, collection, serial);
  const values: number[] = [];
  let negLog = 0;
  for (let t = 0; t < schema.keys.length; t++) {
    const absent = schema.absentProbability[t] ?? 0;
    if (absent > 0 && rng.chance(absent)) {
      values.push(-1);
      negLog -= Math.log(absent);
      continue;
    }
    const cumulative = schema.cumulative[t] as Float64Array;
    const v = rng.pickCumulative(cumulative);
    values.push(v);
    negLog -= Math.log((schema.probabilities[t]?.[v] ?? 1) * (1 - absent));
  }
  const boost = Math.min(3, Math.max(0.85, 1 + 0.12 * (negLog - schema.entropy)));
  return { values, rarityBoost: boost };
}
