/**
 * Percentile rank of each value among `values`: the share of the OTHER values strictly below it,
 * (count below) / (n - 1), in [0, 1]. Equal values share a percentile; the largest value gets 1;
 * a lone value gets 1 (it is the best of its field). Values compare as bigint-safe decimals when given
 * as strings (u64 volumes exceed 2^53).
 */
export function percentileRanks<T extends number | string>(values: readonly T[]): number[] {
  const n = values.length;
  if (n === 0) return [];
  if (n === 1) return [1];
  const sorted = [...values].sort(compareValues);
  return values.map((v) => lowerBound(sorted, v) / (n - 1));
}

export function compareValues(a: number | string, b: number | string): number {
  if (typeof a === 'string' && typeof b === 'string') {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return Number(a) - Number(b);
}

/** Index of the first element not below `v` = how many are strictly below. */
function lowerBound<T extends number | string>(sorted: readonly T[], v: T): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareValues(sorted[mid] as T, v) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
