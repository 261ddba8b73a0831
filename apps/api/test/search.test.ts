import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, addr, createHarness } from './support/fixtures';

/*
 * market/search's two token searches (docs/API.md, "market/search"): a text of one or two
 * characters is a prefix search in name order; a longer one is the typo-tolerant ranked search.
 */

const CREATOR = addr(0xc1);
const DRAGONS = addr(0x100);
const ANTS = addr(0x200);

interface Seeded {
  id: string;
  name: string;
  burned?: boolean;
}

// Names chosen so that a prefix search and a contains search disagree: several start with "a"
// (in both cases, one of them exactly "A"), others only contain it; two names repeat.
const TOKENS: Seeded[] = [
  { id: addr(0x1001), name: 'Shadow Dragon #7' },
  { id: addr(0x1002), name: 'Shadow Dragon #12' },
  { id: addr(0x1003), name: 'Amber Ant #2' },
  { id: addr(0x1004), name: 'amber ant #10' },
  { id: addr(0x1005), name: 'Ant' },
  { id: addr(0x1006), name: 'A' },
  { id: addr(0x1007), name: 'Abyss' },
  { id: addr(0x1008), name: 'Abyss' },
  { id: addr(0x1009), name: 'Azure Ant', burned: true },
  { id: addr(0x100a), name: 'Black Cat' },
  { id: addr(0x100b), name: '%Off' },
  { id: addr(0x100c), name: 'Zero_One' },
];

type TokenHit = { tokenId: string; tokenName: string };

/** The answer the docs promise for a short text, worked out here from the seeded names alone. */
function expectedPrefixHits(text: string, limit: number): string[] {
  const lower = text.toLowerCase();
  const codePoints = (s: string) => [...s].map((c) => c.codePointAt(0) ?? 0);
  const compare = (a: number[], b: number[]) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
    }
    return a.length - b.length;
  };
  return TOKENS.filter((t) => !t.burned && t.name.toLowerCase().startsWith(lower))
    .sort(
      (a, b) =>
        compare(codePoints(a.name.toLowerCase()), codePoints(b.name.toLowerCase())) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, limit)
    .map((t) => t.id);
}

describe('market/search', () => {
  let h: ApiHarness;
  const search = async (text: string, limit = 10) => {
    const response = await h.get(`/market/search?text=${encodeURIComponent(text)}&limit=${limit}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { collections: { collection: string }[]; tokens: TokenHit[] };
  };

  beforeAll(async () => {
    h = await createHarness();
    await h.fx.collection({ id: DRAGONS, creator: CREATOR, name: 'Shadow Dragons' });
    await h.fx.collection({ id: ANTS, creator: CREATOR, name: 'Amber Ants' });
    for (const t of TOKENS) {
      const dragon = t.name.includes('Dragon');
      await h.fx.token({
        id: t.id,
        collectionId: dragon ? DRAGONS : ANTS,
        creator: CREATOR,
        collection: dragon ? 'Shadow Dragons' : 'Amber Ants',
        name: t.name,
        burned: t.burned ?? false,
      });
    }
  });

  afterAll(async () => {
    await h?.close();
  });

  it('one letter: the names starting with it, any case, in lowercase-name order then id, exact name first', async () => {
    const hits = await search('a');
    const ids = hits.tokens.map((t) => t.tokenId);
    expect(ids).toEqual(expectedPrefixHits('a', 10));
    // Worked out by hand as well: "A", "Abyss" ×2 (by id), "amber ant #10", "Amber Ant #2", "Ant".
    expect(hits.tokens.map((t) => t.tokenName)).toEqual([
      'A',
      'Abyss',
      'Abyss',
      'amber ant #10',
      'Amber Ant #2',
      'Ant',
    ]);
    // Names that only contain the letter ("Shadow Dragon", "Black Cat") and burned ones are not hits.
    expect(ids).not.toContain(addr(0x100a));
    expect(ids).not.toContain(addr(0x1009));
  });

  it('one or two characters: the limit cuts the same order; wildcards are plain characters', async () => {
    expect((await search('A', 3)).tokens.map((t) => t.tokenId)).toEqual(expectedPrefixHits('a', 3));
    expect((await search('ab')).tokens.map((t) => t.tokenId)).toEqual([addr(0x1007), addr(0x1008)]);
    expect((await search('%')).tokens.map((t) => t.tokenName)).toEqual(['%Off']);
    expect((await search('_')).tokens).toEqual([]);
    expect((await search('z')).tokens.map((t) => t.tokenName)).toEqual(['Zero_One']);
    // A letter that starts no name finds no token, though names contain it.
    expect((await search('k')).tokens).toEqual([]);
  });

  it('three characters or more: still contains-or-similar, typo-tolerant, exact name first', async () => {
    // Contained, not a prefix: "rag" is inside "Shadow Dragon …".
    expect(new Set((await search('rag')).tokens.map((t) => t.tokenId))).toEqual(
      new Set([addr(0x1001), addr(0x1002)]),
    );
    // A typo: no name contains "Shadw Dragon #7", yet it resembles one most.
    const typo = await search('Shadw Dragon #7');
    expect(typo.tokens[0]?.tokenId).toBe(addr(0x1001));
    expect(typo.collections[0]?.collection).toBe('Shadow Dragons');
    const exact = await search('shadow dragon #12');
    expect(exact.tokens[0]?.tokenId).toBe(addr(0x1002));
  });
});
