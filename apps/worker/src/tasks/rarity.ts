import { type Db, listCollectionsWithTraits, loadRarityInput, replaceTokenRarity } from '@mdq/db';
import { openRarity } from '../rarity/open-rarity';

/** Recomputes one collection's OpenRarity table; returns how many tokens were ranked. */
export async function computeCollectionRarity(db: Db, collectionId: string, now: Date): Promise<number> {
  const input = await loadRarityInput(db, collectionId);
  const traits = new Map<string, Map<string, string>>(input.tokenIds.map((id) => [id, new Map()]));
  for (const t of input.traits) traits.get(t.tokenId)?.set(t.traitType, t.value);
  // A collection whose traits all went away (burns, mutations) gets an empty table, not stale ranks.
  const hasTraits = input.traits.length > 0;
  const results = hasTraits
    ? openRarity(input.tokenIds.map((tokenId) => ({ tokenId, traits: traits.get(tokenId) ?? new Map() })))
    : [];
  await replaceTokenRarity(db, collectionId, results, now);
  return results.length;
}

/** Every collection with traits. */
export async function computeAllRarity(db: Db, now: Date): Promise<number> {
  let total = 0;
  for (const id of await listCollectionsWithTraits(db)) total += await computeCollectionRarity(db, id, now);
  return total;
}
