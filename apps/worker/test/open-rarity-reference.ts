/**
 * OpenRarity as docs written for it define it, computed here in plain TypeScript from the devnet
 * facts (independent of the SQL under test): over a collection's live tokens, every trait type the
 * collection has with "absent" as a value and the trait count as a trait; score = Σ −log2 P / the
 * collection's entropy; rank 1 rarest; scores within 1e-9 relative of the previous share its rank.
 * A collection whose tokens have no traits gets no ranks.
 */
export function referenceRanks(tokens: readonly { tokenId: string; traits: Record<string, string> }[]) {
  const ranks = new Map<string, number>();
  const types = [...new Set(tokens.flatMap((t) => Object.keys(t.traits)))];
  if (types.length === 0) return ranks;
  const n = tokens.length;
  const features = (t: { traits: Record<string, string> }) => [
    ...types.map((type) => `${type}=${t.traits[type] ?? '\u0000absent'}`),
    `#count=${Object.keys(t.traits).length}`,
  ];
  const counts = new Map<string, number>();
  for (const t of tokens) for (const f of features(t)) counts.set(f, (counts.get(f) ?? 0) + 1);
  let entropy = 0;
  for (const c of counts.values()) entropy -= (c / n) * Math.log2(c / n);
  const scored = tokens.map((t) => {
    const ic = features(t).reduce((sum, f) => sum - Math.log2((counts.get(f) ?? 0) / n), 0);
    return { tokenId: t.tokenId, score: entropy === 0 ? 0 : ic / entropy };
  });
  scored.sort((a, b) => b.score - a.score);
  scored.forEach((s, i) => {
    const previous = scored[i - 1];
    const close =
      previous !== undefined &&
      Math.abs(previous.score - s.score) <= 1e-9 * Math.max(Math.abs(previous.score), Math.abs(s.score));
    ranks.set(s.tokenId, close && previous ? (ranks.get(previous.tokenId) ?? i + 1) : i + 1);
  });
  return ranks;
}
