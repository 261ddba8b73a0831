import { type Db, sql } from '@mdq/db';
import { createTestDatabase, seededRandom, type TestDatabase } from '@mdq/db/testing';
import { computeOpenRarity, rarityIsStale } from '@mdq/db/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeAllRarity, computeCollectionRarity } from '../src/tasks/rarity';
import { addr, insertCollection } from './helpers';

let t: TestDatabase;
let db: Db;
let nextCollection = 1;
const now = new Date('2026-11-20T12:00:00Z');

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
});
afterAll(async () => {
  await t?.drop();
});

type Traits = Record<string, string>;

/** A fresh collection holding `tokens` (id → traits); returns its id. */
async function collectionOf(tokens: Record<string, Traits>, burned: string[] = []): Promise<string> {
  const id = addr(nextCollection++);
  await insertCollection(db, id);
  const entries = Object.entries(tokens);
  await db
    .insertInto('tokens')
    .values(
      entries.map(([tokenId]) => ({
        token_data_id: tokenId,
        token_standard: 'v2',
        collection_id: id,
        token_name: tokenId,
        is_burned: burned.includes(tokenId),
        last_transaction_version: 1,
      })),
    )
    .execute();
  const traits = entries.flatMap(([tokenId, t]) =>
    Object.entries(t).map(([trait_type, value]) => ({
      token_data_id: tokenId,
      collection_id: id,
      trait_type,
      value,
    })),
  );
  if (traits.length > 0) await db.insertInto('token_attributes').values(traits).execute();
  return id;
}

interface Stored {
  tokenId: string;
  score: number;
  rank: number;
  traitCount: number;
}

async function stored(collectionId: string): Promise<Stored[]> {
  const { rows } = await sql<Stored>`
    SELECT token_data_id AS "tokenId", score, rank, trait_count AS "traitCount" FROM token_rarity
    WHERE collection_id = ${collectionId} ORDER BY rank, token_data_id COLLATE "C"`.execute(db);
  return rows;
}

describe('OpenRarity in SQL', () => {
  it('scores information content over collection entropy, with absent values and trait count', async () => {
    // color: red 2/4, blue 1/4, absent 1/4; hat: yes 1/4, absent 3/4; trait count: 2→1/4, 1→2/4, 0→1/4.
    const id = await collectionOf({
      'r1-A': { color: 'red', hat: 'yes' },
      'r1-B': { color: 'red' },
      'r1-C': { color: 'blue' },
      'r1-D': {},
    });
    expect(await computeCollectionRarity(db, id, now)).toBe(4);
    const results = await stored(id);
    const entropy = 1.5 + (0.5 + 0.75 * Math.log2(4 / 3)) + 1.5;
    const absentHat = Math.log2(4 / 3);
    const expected: Record<string, number> = {
      'r1-A': (1 + 2 + 2) / entropy,
      'r1-B': (1 + absentHat + 1) / entropy,
      'r1-C': (2 + absentHat + 1) / entropy,
      'r1-D': (2 + absentHat + 2) / entropy,
    };
    expect(results.map((r) => r.tokenId)).toEqual(['r1-A', 'r1-D', 'r1-C', 'r1-B']);
    expect(results.map((r) => r.rank)).toEqual([1, 2, 3, 4]);
    for (const r of results) expect(r.score).toBeCloseTo(expected[r.tokenId] ?? Number.NaN, 12);
    expect(results.find((r) => r.tokenId === 'r1-A')?.traitCount).toBe(2);
    expect(results.find((r) => r.tokenId === 'r1-D')?.traitCount).toBe(0);
  });

  it('gives equal scores one rank and skips the next (1, 1, 3, 3)', async () => {
    const id = await collectionOf({
      'r2-a': { c: 'x' },
      'r2-b': { c: 'y' },
      'r2-c': { c: 'z' },
      'r2-d': { c: 'z' },
    });
    await computeCollectionRarity(db, id, now);
    const results = await stored(id);
    expect(results.map((r) => [r.tokenId, r.rank])).toEqual([
      ['r2-a', 1],
      ['r2-b', 1],
      ['r2-c', 3],
      ['r2-d', 3],
    ]);
    // IC 2 vs 1 bit over entropy 1.5 bits (the trait count carries none: every token has one trait).
    expect(results[0]?.score).toBeCloseTo(2 / 1.5, 12);
    expect(results[2]?.score).toBeCloseTo(1 / 1.5, 12);
  });

  it('ranks a collection of identical tokens all first with score 0', async () => {
    const id = await collectionOf({ 'r3-a': { c: 'x' }, 'r3-b': { c: 'x' } });
    await computeCollectionRarity(db, id, now);
    expect((await stored(id)).map((r) => [r.rank, r.score])).toEqual([
      [1, 0],
      [1, 0],
    ]);
  });

  it('measures the live tokens only: a burn drops its row and changes the others', async () => {
    // With r4-c burned, the population is a (x) and b (y): two equally rare tokens.
    const id = await collectionOf({ 'r4-a': { c: 'x' }, 'r4-b': { c: 'y' }, 'r4-c': { c: 'y' } }, ['r4-c']);
    await computeCollectionRarity(db, id, now);
    expect((await stored(id)).map((r) => [r.tokenId, r.rank, r.score])).toEqual([
      ['r4-a', 1, 1],
      ['r4-b', 1, 1],
    ]);
    await sql`UPDATE tokens SET is_burned = true WHERE token_data_id = 'r4-b'`.execute(db);
    await computeCollectionRarity(db, id, now);
    expect((await stored(id)).map((r) => [r.tokenId, r.rank, r.score])).toEqual([['r4-a', 1, 0]]);
    // A collection whose live tokens carry no trait at all has no rarity rows.
    await sql`DELETE FROM token_attributes WHERE collection_id = ${id}`.execute(db);
    expect(await computeCollectionRarity(db, id, now)).toBe(0);
    expect(await stored(id)).toEqual([]);
  });

  it('agrees with a straightforward reference computation on a generated collection', {
    timeout: 120_000,
  }, async () => {
    const random = seededRandom(20);
    const types = ['background', 'body', 'eyes', 'hat', 'mouth', 'aura'];
    const tokens: Record<string, Traits> = {};
    for (let i = 0; i < 600; i++) {
      const traits: Traits = {};
      types.forEach((type, k) => {
        // Skewed values (common ones repeat, so equal trait sets tie) and traits often absent.
        if (random() < 0.15 * k) return;
        traits[type] = `v${Math.floor(random() ** 3 * (2 + 3 * k))}`;
      });
      tokens[`r5-${i.toString().padStart(4, '0')}`] = traits;
    }
    const id = await collectionOf(tokens, ['r5-0007', 'r5-0100']);
    const live = Object.fromEntries(
      Object.entries(tokens).filter(([tokenId]) => tokenId !== 'r5-0007' && tokenId !== 'r5-0100'),
    );
    const expected = referenceOpenRarity(live);
    expect(await computeCollectionRarity(db, id, now)).toBe(expected.size);
    const results = await stored(id);
    expect(results).toHaveLength(expected.size);
    // The generated collection has ties, so the rank rule is exercised.
    expect(new Set(results.map((r) => r.rank)).size).toBeLessThan(results.length);
    for (const r of results) {
      const e = expected.get(r.tokenId);
      expect(e, r.tokenId).toBeDefined();
      expect(r.score).toBeCloseTo(e?.score ?? Number.NaN, 9);
      expect([r.tokenId, r.rank, r.traitCount]).toEqual([r.tokenId, e?.rank, e?.traitCount]);
    }
  });

  it('the full recompute stores what the per-collection ones do, for every collection at once', async () => {
    const before = await sql<Stored & { collectionId: string }>`
      SELECT collection_id AS "collectionId", token_data_id AS "tokenId", score, rank FROM token_rarity
      ORDER BY token_data_id`.execute(db);
    const later = new Date(now.getTime() + 60_000);
    await computeAllRarity(db, later);
    const after = await sql<Stored & { collectionId: string; computedAt: Date }>`
      SELECT collection_id AS "collectionId", token_data_id AS "tokenId", score, rank, computed_at AS "computedAt"
      FROM token_rarity ORDER BY token_data_id`.execute(db);
    // Same tokens, collections and ranks; scores equal up to float summation order.
    const shape = (r: Stored & { collectionId: string }) => [r.collectionId, r.tokenId, r.rank];
    expect(after.rows.map(shape)).toEqual(before.rows.map(shape));
    after.rows.forEach((r, i) => {
      expect(r.score).toBeCloseTo(before.rows[i]?.score ?? Number.NaN, 12);
    });
    // Nothing changed, so the full recompute rewrote nothing; a collection's own recompute does.
    expect(after.rows.some((r) => r.computedAt.getTime() === later.getTime())).toBe(false);
    const first = after.rows[0]?.collectionId as string;
    await computeCollectionRarity(db, first, later);
    const rewritten = await sql<{ at: Date }>`
      SELECT min(computed_at) AS at FROM token_rarity WHERE collection_id = ${first}`.execute(db);
    expect(rewritten.rows[0]?.at.getTime()).toBe(later.getTime());
    // It ranks each of the collection's stored tokens again, and says how many.
    const own = after.rows.filter((r) => r.collectionId === first).length;
    expect(await computeOpenRarity(db, [first], later)).toBe(own);
    // An empty scope is no work.
    expect(await computeOpenRarity(db, [], later)).toBe(0);
  });

  it('the full recompute writes the rows a change moved and removes the burned one', async () => {
    // a (x), b (y), c (y): a is rarest. Burning c makes a and b equally rare.
    const id = await collectionOf({ 'r6-a': { c: 'x' }, 'r6-b': { c: 'y' }, 'r6-c': { c: 'y' } });
    await computeAllRarity(db, now);
    expect((await stored(id)).map((r) => [r.tokenId, r.rank])).toEqual([
      ['r6-a', 1],
      ['r6-b', 2],
      ['r6-c', 2],
    ]);
    await sql`UPDATE tokens SET is_burned = true WHERE token_data_id = 'r6-c'`.execute(db);
    const later = new Date(now.getTime() + 120_000);
    await computeAllRarity(db, later);
    const { rows } = await sql<{ tokenId: string; rank: number; score: number; computedAt: Date }>`
      SELECT token_data_id AS "tokenId", rank, score, computed_at AS "computedAt" FROM token_rarity
      WHERE collection_id = ${id} ORDER BY token_data_id`.execute(db);
    expect(rows.map((r) => [r.tokenId, r.rank, r.score, r.computedAt.getTime()])).toEqual([
      ['r6-a', 1, 1, later.getTime()],
      ['r6-b', 1, 1, later.getTime()],
    ]);
  });

  it('a collection is stale for rarity after a mint, not after a trade (the collection-changed job recomputes only then)', async () => {
    const id = await collectionOf({ 'r8-a': { c: 'x' }, 'r8-b': { c: 'y' }, 'r8-c': { c: 'y' } });
    expect(await rarityIsStale(db, id)).toBe(true);
    expect(await computeCollectionRarity(db, id, now)).toBe(3);
    expect(await rarityIsStale(db, id)).toBe(false);
    // A trade: the token's row moves on and an ownership is written, no trait or membership changes.
    await sql`UPDATE tokens SET last_transaction_version = 2 WHERE token_data_id = 'r8-b'`.execute(db);
    await db
      .insertInto('token_ownerships')
      .values({
        token_data_id: 'r8-b',
        property_version: '0',
        owner_address: addr(900),
        collection_id: id,
        token_standard: 'v2',
        amount: '1',
        last_transaction_version: 2,
      })
      .execute();
    expect(await rarityIsStale(db, id)).toBe(false);
    // A mint changes the population, and so every score.
    await db
      .insertInto('tokens')
      .values({
        token_data_id: 'r8-d',
        token_standard: 'v2',
        collection_id: id,
        token_name: 'r8-d',
        last_transaction_version: 3,
      })
      .execute();
    await db
      .insertInto('token_attributes')
      .values({ token_data_id: 'r8-d', collection_id: id, trait_type: 'c', value: 'y' })
      .execute();
    expect(await rarityIsStale(db, id)).toBe(true);
    expect(await computeCollectionRarity(db, id, now)).toBe(4);
    expect((await stored(id)).map((r) => [r.tokenId, r.rank])).toEqual([
      ['r8-a', 1],
      ['r8-b', 2],
      ['r8-c', 2],
      ['r8-d', 2],
    ]);
  });

  it('the full recompute skips collections whose traits did not change since their last computation', async () => {
    const id = await collectionOf({ 'r7-a': { c: 'x' }, 'r7-b': { c: 'y' }, 'r7-c': { c: 'y' } });
    const other = await collectionOf({ 'r7-d': { c: 'x' }, 'r7-e': { c: 'x' } });
    await computeAllRarity(db, now);
    expect((await stored(id)).map((r) => [r.tokenId, r.rank])).toEqual([
      ['r7-a', 1],
      ['r7-b', 2],
      ['r7-c', 2],
    ]);
    // A stored row that no longer matches its collection's traits is left alone while they stay
    // the same: the schedule does not look at such a collection again.
    await sql`UPDATE token_rarity SET rank = 9 WHERE token_data_id IN ('r7-a', 'r7-d')`.execute(db);
    expect(await computeAllRarity(db, now)).toBe(0);
    expect((await stored(id)).find((r) => r.tokenId === 'r7-a')?.rank).toBe(9);
    // A trait change of one collection brings that one back into the full recompute, not the other.
    await sql`UPDATE token_attributes SET value = 'x' WHERE token_data_id = 'r7-c'`.execute(db);
    expect(await computeAllRarity(db, now)).toBe(3);
    expect((await stored(id)).map((r) => [r.tokenId, r.rank])).toEqual([
      ['r7-b', 1],
      ['r7-a', 2],
      ['r7-c', 2],
    ]);
    expect((await stored(other)).find((r) => r.tokenId === 'r7-d')?.rank).toBe(9);
  });
});

/**
 * OpenRarity as its documentation states it, token by token: every trait type of the collection
 * with the value "absent" where a token lacks it, plus the trait count as one more trait; P is the
 * share of tokens with the same value; IC = Σ −log2 P; score = IC / Σ −P·log2 P; ranks by score,
 * equal (math.isclose) scores sharing the rank of the first, the next one skipping.
 */
function referenceOpenRarity(
  tokens: Record<string, Traits>,
): Map<string, { score: number; rank: number; traitCount: number }> {
  const ids = Object.keys(tokens);
  const n = ids.length;
  const types = [...new Set(ids.flatMap((id) => Object.keys(tokens[id] ?? {})))];
  const row = (id: string): string[] => {
    const traits = tokens[id] ?? {};
    return [...types.map((type) => traits[type] ?? '<absent>'), `count:${Object.keys(traits).length}`];
  };
  const rows = new Map(ids.map((id) => [id, row(id)]));
  const columns = types.length + 1;
  const share = (column: number, value: string) =>
    ids.filter((id) => rows.get(id)?.[column] === value).length / n;
  let entropy = 0;
  for (let column = 0; column < columns; column++) {
    for (const value of new Set(ids.map((id) => rows.get(id)?.[column] ?? ''))) {
      const p = share(column, value);
      entropy -= p * Math.log2(p);
    }
  }
  const scores = ids.map((id) => {
    let information = 0;
    rows.get(id)?.forEach((value, column) => {
      information -= Math.log2(share(column, value));
    });
    return { id, score: entropy > 0 ? information / entropy : 0 };
  });
  scores.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const out = new Map<string, { score: number; rank: number; traitCount: number }>();
  let previous: { score: number; rank: number } | null = null;
  scores.forEach(({ id, score }, i) => {
    const tie =
      previous !== null &&
      Math.abs(previous.score - score) <= 1e-9 * Math.max(Math.abs(previous.score), Math.abs(score));
    const rank: number = tie && previous ? previous.rank : i + 1;
    out.set(id, { score, rank, traitCount: Object.keys(tokens[id] ?? {}).length });
    previous = { score, rank };
  });
  return out;
}
