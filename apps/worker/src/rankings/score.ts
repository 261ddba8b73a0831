import { compareValues, percentileRanks } from './percentile';

/** A ranking metric: its weight and, per collection, a value (null = the collection has none). */
export interface MetricSpec {
  name: string;
  weight: number;
}

export interface Candidate {
  collectionId: string;
  /** Native-coin volume in the window (decimal string), the first tie-breaker. */
  volume: string;
  values: Record<string, number | string | null>;
}

export interface Scored {
  collectionId: string;
  score: number;
  percentiles: Record<string, number | null>;
}

/**
 * score = Σ weight × percentile rank, percentiles taken among the candidates that have the metric.
 * When a candidate lacks a metric (no social signal, no floor at the window start), that weight is
 * spread over its other metrics in proportion to their weights, so its score stays on the same 0..1
 * scale. Sorted by score, then volume, then collection id (all descending except the id).
 */
export function scoreCandidates(candidates: readonly Candidate[], metrics: readonly MetricSpec[]): Scored[] {
  const percentiles = new Map<string, Map<string, number>>();
  for (const m of metrics) {
    const present = candidates.filter((c) => c.values[m.name] !== null && c.values[m.name] !== undefined);
    const ranks = percentileRanks(present.map((c) => c.values[m.name] as number | string));
    percentiles.set(m.name, new Map(present.map((c, i) => [c.collectionId, ranks[i] ?? 0])));
  }
  const scored = candidates.map((c) => {
    const own: Record<string, number | null> = {};
    let weightSum = 0;
    let sum = 0;
    for (const m of metrics) {
      const p = percentiles.get(m.name)?.get(c.collectionId);
      own[m.name] = p ?? null;
      if (p === undefined) continue;
      weightSum += m.weight;
      sum += m.weight * p;
    }
    const total = metrics.reduce((s, m) => s + m.weight, 0);
    // Rounded so that equal weighted sums reached by different float paths tie exactly.
    const score = weightSum > 0 ? Math.round((sum / weightSum) * total * 1e12) / 1e12 : 0;
    return { candidate: c, scored: { collectionId: c.collectionId, score, percentiles: own } };
  });
  scored.sort(
    (a, b) =>
      b.scored.score - a.scored.score ||
      compareValues(b.candidate.volume, a.candidate.volume) ||
      (a.candidate.collectionId < b.candidate.collectionId
        ? -1
        : a.candidate.collectionId > b.candidate.collectionId
          ? 1
          : 0),
  );
  return scored.map((s) => s.scored);
}
