import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnsRead, explainPlan } from '../src/read';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/*
 * columnsRead decides whether a cached route may key on 'collections:identity' rather than on every
 * write to `collections` (apps/api test/read-tables.test.ts): it must see a counting column wherever
 * a statement reads one, even where a scan emits every column of its table for a node above to pick.
 */
describe('columnsRead: the columns of a relation a VERBOSE plan reads', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  const COUNTS = ['owner_count', 'current_supply'];
  const read = async (statement: string) =>
    columnsRead(await explainPlan(test.db, statement, [], { verbose: true }), 'collections', COUNTS);

  it('reads nothing of the counts when only identity columns are used above the scan', async () => {
    expect(
      await read(`SELECT t.token_data_id, c.collection_name, c.uri FROM tokens t
                  LEFT JOIN collections c ON c.collection_id = t.collection_id WHERE t.lootbox_id = 1`),
    ).toEqual([]);
  });

  it('sees a count in the output, a condition, an aggregate, a sub plan, and a whole row', async () => {
    expect(await read('SELECT c.collection_name, c.owner_count FROM collections c')).toEqual(['owner_count']);
    expect(await read('SELECT c.collection_name FROM collections c WHERE c.current_supply > 0')).toEqual([
      'current_supply',
    ]);
    expect(await read('SELECT sum(owner_count) FROM collections')).toEqual(['owner_count']);
    expect(
      await read(`SELECT t.token_data_id, (SELECT c.owner_count FROM collections c WHERE c.collection_id = t.collection_id)
                  FROM tokens t`),
    ).toEqual(['owner_count']);
    expect(await read('SELECT row_to_json(c) FROM collections c')).toEqual(COUNTS);
    // Through a subquery that hands up a count, and one whose unused columns the planner drops.
    expect(
      await read(`SELECT x.collection_name, x.n FROM (SELECT c.*, c.owner_count + 1 AS n FROM collections c OFFSET 0) x
                  JOIN tokens t ON t.collection_id = x.collection_id`),
    ).toEqual(['owner_count']);
    expect(
      await read(`SELECT x.collection_name FROM (SELECT * FROM collections c OFFSET 0) x
                  JOIN tokens t ON t.collection_id = x.collection_id`),
    ).toEqual([]);
  });
});
