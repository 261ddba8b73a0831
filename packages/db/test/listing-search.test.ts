import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totalListingCards } from '../src/queries/api/listings';
import { createTestDatabase, insertCollection, type TestDatabase } from '../src/testing';

/*
 * listing-cards' search leaves the trigram test out for a text of one or two letters or digits
 * (every name similar to such a text contains it). Checked here against the whole predicate,
 * written out in SQL, over names built to be near such texts: single letters, one- and two-letter
 * words, words that start or end with the text or hold it inside, punctuation and digits.
 */
const names = [
  'F',
  'f',
  'fo',
  'Fo',
  'of',
  'ofo',
  'Fox #1',
  'FOX',
  'fx',
  'xf',
  'a f',
  'f a',
  'ab',
  'ba',
  'a!',
  '!a',
  'Golden Foxes #12',
  'Wild Dragons #7',
  'x',
  'xy',
  'yx',
  'x y',
  'a',
  'aa',
  'aaa',
  'A-1',
  '1',
  '12',
  '21',
  '7',
  'Bear 7',
  'b7',
  '7b',
  'z',
  'zz',
  'zo',
  'oz',
  'o',
  'of fo',
  'f o',
  'Fo-o',
  'ofoo',
  'Dragon',
  'go',
];
const collections = ['Fo', 'Golden Foxes', 'Wild Dragons', 'A', 'xy'];

describe('listing search by a short text', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    for (const [c, name] of collections.entries()) await insertCollection(t.db, `0xc${c}`, { name });
    for (const [i, name] of names.entries()) {
      await sql`INSERT INTO listings (marketplace, listing_id, contract_address, token_data_id, collection_id,
                  token_name, price, status, last_transaction_version, listed_version, seller)
                VALUES ('m', ${`l${i}`}, '0xm', ${`0xt${i}`}, ${`0xc${i % collections.length}`}, ${name}, 100,
                        'active', ${i + 1}, ${i + 1}, '0xseller')`.execute(t.db);
    }
  });
  afterAll(() => t.drop());

  it('counts what ILIKE or trigram similarity would, for every one- and two-character text', async () => {
    const texts = [
      ...'abfoxyz127'.split(''),
      ...['fo', 'Fo', 'of', 'ab', 'xy', 'yx', 'zo', 'go', '12', '7b', 'a1', 'Do', 'ox'],
      // Longer and non-alphanumeric texts keep the trigram test; the same check covers them.
      ...['a!', 'f o', 'fox', 'Foxe', 'Dragn', 'Golden'],
    ];
    let similarOnly = 0;
    for (const text of texts) {
      const like = `%${text}%`;
      const { rows } = await sql<{ n: number; similar_only: number }>`
        SELECT count(*)::int AS n,
               count(*) FILTER (WHERE NOT l.token_name ILIKE ${like} AND l.token_name % ${text})::int AS similar_only
          FROM listings l
         WHERE l.status = 'active' AND (l.token_name ILIKE ${like} OR l.token_name % ${text}
            OR l.collection_id = ANY(ARRAY(SELECT collection_id FROM collections
                                           WHERE collection_name ILIKE ${like} OR collection_name % ${text})))`.execute(
        t.db,
      );
      similarOnly += rows[0]?.similar_only ?? 0;
      expect(await totalListingCards(t.db, { search: text }), text).toBe(rows[0]?.n);
    }
    // The longer texts do find names by similarity alone: the check is not vacuous.
    expect(similarOnly).toBeGreaterThan(0);
  });
});
