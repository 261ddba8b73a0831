import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchMarket } from '../src/read';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/*
 * Token search (docs/API.md, "market/search") against a plain reference: every stored name is
 * matched and ranked here in JavaScript, by the documented rules, and the answer must be the same
 * list. Postgres only supplies its two primitives, lower() and pg_trgm's similarity(), so the
 * matching and ranking are written independently of the query's stems, ranges and tiers. The names
 * are generated: numbered names of many stems (some prefixes of others, "Token " and "Token #"),
 * names without numbers, names of digits only, unicode, LIKE wildcards, burned tokens; then names
 * change and tokens burn, and the stem counts must follow.
 */

/** A small deterministic generator, so a failure names a reproducible set of names. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const STEMS = [
  'Shadow Dragon #',
  'Shadow Dragons #',
  'Shadow Dragon Egg #',
  'Neon Bears #',
  'Neon Bear ',
  'Token ',
  'Token #',
  'Edition 2 Knight #',
  'Ünïcode Ñame #',
  '東京タワー #',
  '🐉 Drake ',
  '100% Real #',
  'Zero_One #',
  'Mingo #',
  'APTS #',
  '',
];
const PLAIN = [
  'Lollipop',
  'Kusama',
  'SK SABIR',
  'veCELL',
  'Aptos CIS x Joule Finance',
  'Shadow',
  'Neon',
  'Dragon 2 Go',
];

const TEXTS = [
  // one or two characters: prefix search
  'a',
  'S',
  'é',
  'ü',
  '東',
  '1',
  '%',
  '_',
  'ne',
  'to',
  // blank once trimmed: every name starts with it
  '  ',
  // contains, similar, typos
  'Shadow',
  'shadow dragon',
  'Shadow Dragon #7',
  'Shadw Dragon #7',
  'Shadow Dragn 12',
  'dragons',
  'rag',
  'Nen Bars #5',
  'bear',
  'token',
  'Token 1',
  'token #12',
  'lolipop',
  'Lollipop',
  'cis x joule',
  'ünïcode',
  'ÜNÏCODE ÑAME #3',
  '東京タワ',
  'タワー #1',
  '🐉 drake',
  '100%',
  'o_o',
  'Zero_One',
  // numbers: inside the stem, across stem and number, digits only
  '123',
  '007',
  '#12',
  'n #1',
  's #10',
  'Edition 2',
  'Dragon 2',
  'APTS #1230',
  'Mingo #12541',
  'zzzz',
];

interface Token {
  id: string;
  name: string;
  burned: boolean;
}

describe('token search matches the reference', () => {
  let test: TestDatabase;
  const tokens: Token[] = [];
  const next = random(22);
  const pickName = (): string => {
    const r = next();
    if (r < 0.12) return PLAIN[Math.floor(next() * PLAIN.length)] as string;
    const stem = STEMS[Math.floor(next() * STEMS.length)] as string;
    const n = Math.floor(next() * 300);
    // Now and then a number with leading zeros, or a long one.
    const number = next() < 0.05 ? `00${n}` : next() < 0.05 ? `1230${n}` : String(n);
    return `${stem}${number}`;
  };

  beforeAll(async () => {
    test = await createTestDatabase();
    for (let i = 0; i < 1500; i++) {
      tokens.push({ id: `0x${(0x1000 + i).toString(16)}`, name: pickName(), burned: next() < 0.1 });
    }
    await insert(test, tokens);
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
  });

  it('the same answers, in the same order, for every text and limit', async () => {
    await compareAll(test, tokens);
  }, 120_000);

  it('after names change, tokens burn, and a write repeats: the same answers and exact stem counts', async () => {
    const changed = tokens.filter((_, i) => i % 7 === 0);
    for (const t of changed) t.name = pickName();
    const burned = tokens.filter((t, i) => i % 11 === 3 && !t.burned);
    for (const t of burned) t.burned = true;
    await sql`
      UPDATE tokens t SET token_name = c.name
        FROM unnest(${changed.map((t) => t.id)}::text[], ${changed.map((t) => t.name)}::text[]) c(id, name)
       WHERE t.token_data_id = c.id`.execute(test.db);
    await sql`UPDATE tokens SET is_burned = true WHERE token_data_id = ANY(${burned.map((t) => t.id)}::text[])`.execute(
      test.db,
    );
    // The same facts written again (as a replayed batch would) change no count.
    await sql`
      UPDATE tokens t SET token_name = c.name, is_burned = c.burned
        FROM unnest(${tokens.map((t) => t.id)}::text[], ${tokens.map((t) => t.name)}::text[],
                    ${tokens.map((t) => t.burned)}::boolean[]) c(id, name, burned)
       WHERE t.token_data_id = c.id`.execute(test.db);
    const stored = await sql<{ stem: string; live_count: number }>`
      SELECT stem, live_count FROM token_name_stems ORDER BY stem COLLATE "C"`.execute(test.db);
    const live = tokens.filter((t) => !t.burned);
    const lowered = await lowerAll(
      test,
      live.map((t) => t.name),
    );
    const expected = new Map<string, number>();
    for (const t of live) {
      const stem = stemOf(lowered.get(t.name) as string);
      expected.set(stem, (expected.get(stem) ?? 0) + 1);
    }
    expect(Object.fromEntries(stored.rows.map((r) => [r.stem, r.live_count]))).toEqual(
      Object.fromEntries(expected),
    );
    await compareAll(test, tokens);
  }, 120_000);
});

async function insert(test: TestDatabase, tokens: readonly Token[]): Promise<void> {
  await test.db
    .insertInto('tokens')
    .values(
      tokens.map((t) => ({
        token_data_id: t.id,
        token_standard: 'v2' as const,
        collection_id: '0xc0',
        creator_address: '0xc1',
        collection_name: 'Generated',
        token_name: t.name,
        description: null,
        token_uri: null,
        properties: null,
        supply: '1',
        maximum: '1',
        largest_property_version: '0',
        is_burned: t.burned,
        lootbox_id: null,
        lootbox_tier: null,
        minted_at: null,
        minted_version: 1,
        last_transaction_version: 1,
      })),
    )
    .execute();
}

/** Postgres' lower() of each text (the search compares lowercased names as Postgres lowers them). */
async function lowerAll(test: TestDatabase, texts: readonly string[]): Promise<Map<string, string>> {
  const { rows } = await sql<{ text: string; lowered: string }>`
    SELECT text, lower(text) AS lowered FROM unnest(${[...new Set(texts)]}::text[]) text`.execute(test.db);
  return new Map(rows.map((r) => [r.text, r.lowered]));
}

/** The name without the digits that end it. */
const stemOf = (lowered: string) => lowered.replace(/[0-9]+$/, '');

/** Code point order, which is the byte order of UTF-8 (the btree's text_pattern_ops). */
function compareCodePoints(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0) ?? 0);
  const y = [...b].map((c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  }
  return x.length - y.length;
}

/** The documented search over every live token, written out plainly. */
function reference(
  tokens: readonly Token[],
  lowered: Map<string, string>,
  similarity: Map<string, number>,
  text: string,
  limit: number,
): string[] {
  const q = lowered.get(text.trim()) as string;
  const short = [...text.trim()].length < 3;
  const textStem = stemOf(q);
  const number = q.slice(textStem.length);
  const rows = tokens
    .filter((t) => !t.burned)
    .map((t) => {
      const name = lowered.get(t.name) as string;
      const stem = stemOf(name);
      const sim = similarity.get(`${stem}\u0000${textStem}`) ?? 0;
      // Contained: an occurrence that starts before the name's number, or where it starts.
      let contained = false;
      for (let at = name.indexOf(q); at !== -1 && !contained; at = name.indexOf(q, at + 1)) {
        contained = at <= stem.length;
      }
      const tier = name === q ? 0 : name.startsWith(q) ? 1 : 2;
      const matches = short ? tier < 2 : tier < 2 || contained || sim >= 0.3;
      return {
        t,
        name,
        tier,
        sim: tier === 2 ? sim : 0,
        numbered: tier === 2 && number !== '' && name.startsWith(stem + number),
        matches,
      };
    })
    .filter((r) => r.matches);
  rows.sort(
    (a, b) =>
      a.tier - b.tier ||
      b.sim - a.sim ||
      Number(b.numbered) - Number(a.numbered) ||
      compareCodePoints(a.name, b.name) ||
      (a.t.id < b.t.id ? -1 : a.t.id > b.t.id ? 1 : 0),
  );
  return rows.slice(0, limit).map((r) => r.t.id);
}

async function compareAll(test: TestDatabase, tokens: readonly Token[]): Promise<void> {
  const lowered = await lowerAll(test, [...tokens.map((t) => t.name), ...TEXTS.map((t) => t.trim())]);
  const stems = [...new Set(tokens.map((t) => stemOf(lowered.get(t.name) as string)))];
  const textStems = [...new Set(TEXTS.map((t) => stemOf(lowered.get(t.trim()) as string)))];
  const pairs = stems.flatMap((s) => textStems.map((t) => [s, t] as const));
  const { rows } = await sql<{ a: string; b: string; sim: number }>`
    SELECT a, b, similarity(a, b)::float8 AS sim
      FROM unnest(${pairs.map((p) => p[0])}::text[], ${pairs.map((p) => p[1])}::text[]) p(a, b)`.execute(
    test.db,
  );
  // similarity() is a float4: compared as the query compares it (>= 0.3 as float8), kept exact.
  const similarity = new Map(rows.map((r) => [`${r.a}\u0000${r.b}`, r.sim]));
  for (const text of TEXTS) {
    for (const limit of [10, 50]) {
      const answer = await searchMarket(test.db, text, limit);
      const ids = answer.tokens.map((t) => t.tokenId);
      expect(ids, `${JSON.stringify(text)} limit ${limit}`).toEqual(
        reference(tokens, lowered, similarity, text, limit),
      );
    }
  }
}
