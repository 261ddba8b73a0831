/*
 * OpenRarity (https://openrarity.gitbook.io): a token's score is the information content of its
 * traits, Σ −log2(P(value)), divided by the collection's entropy Σ over traits Σ over values
 * −P·log2 P. Two rules make tokens comparable across trait sets: a token without a trait type that
 * others have carries the value "absent" for it, and the number of traits a token has is itself a
 * trait ("trait count"). Rank 1 is the rarest; scores equal within float tolerance share a rank and
 * the next rank skips (1, 1, 3), as OpenRarity's ranker does.
 */

/** Sentinel trait type and value; the NUL byte keeps them apart from any real on-chain key. */
export const TRAIT_COUNT_TYPE = '\u0000trait_count';
export const ABSENT_VALUE = '\u0000absent';

export interface RarityToken {
  tokenId: string;
  traits: ReadonlyMap<string, string>;
}

export interface RarityResult {
  tokenId: string;
  score: number;
  rank: number;
  /** Real traits the token has (without "absent" values and the trait-count trait). */
  traitCount: number;
}

export function openRarity(tokens: readonly RarityToken[]): RarityResult[] {
  const n = tokens.length;
  if (n === 0) return [];
  const traitTypes = new Set<string>();
  for (const t of tokens) for (const type of t.traits.keys()) traitTypes.add(type);
  const types = [...traitTypes].sort();
  // Each token's full value vector, with "absent" filled in and the trait count appended.
  const vectors = tokens.map((t) => {
    const values = new Map<string, string>();
    for (const type of types) values.set(type, t.traits.get(type) ?? ABSENT_VALUE);
    values.set(TRAIT_COUNT_TYPE, String(t.traits.size));
    return values;
  });
  const counts = new Map<string, Map<string, number>>();
  for (const v of vectors) {
    for (const [type, value] of v) {
      const perType = counts.get(type) ?? new Map<string, number>();
      counts.set(type, perType);
      perType.set(value, (perType.get(value) ?? 0) + 1);
    }
  }
  let entropy = 0;
  for (const perType of counts.values()) {
    for (const c of perType.values()) {
      const p = c / n;
      entropy -= p * Math.log2(p);
    }
  }
  const scored = tokens.map((t, i) => {
    let ic = 0;
    for (const [type, value] of vectors[i] ?? []) {
      const c = counts.get(type)?.get(value) ?? n;
      ic -= Math.log2(c / n);
    }
    // Entropy 0 means every token is identical: nothing is rarer than anything else.
    return { tokenId: t.tokenId, score: entropy > 0 ? ic / entropy : 0, traitCount: t.traits.size };
  });
  const sorted = [...scored].sort(
    (a, b) => b.score - a.score || (a.tokenId < b.tokenId ? -1 : a.tokenId > b.tokenId ? 1 : 0),
  );
  const results: RarityResult[] = [];
  sorted.forEach((s, i) => {
    const prev = results[i - 1];
    const rank = prev && isClose(prev.score, s.score) ? prev.rank : i + 1;
    results.push({ ...s, rank });
  });
  return results;
}

/** Python's math.isclose defaults (rel 1e-9), which OpenRarity uses for ties. */
function isClose(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}
