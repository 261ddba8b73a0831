import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listMetadataCollectionsDue,
  listMetadataDue,
  type MetadataOutcome,
  type MetadataTarget,
  saveMetadataOutcomes,
} from '../src/queries/worker/metadata-documents';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/*
 * The crawler lists the pending tokens (metadata_pending, kept by a trigger on tokens) and the
 * documents past their refresh time instead of every token: what a crawl must still find, it finds.
 */

const COLLECTION = '0xc0';
const OTHER = '0xc9';

async function mint(test: TestDatabase, id: string, collection = COLLECTION, version = 1): Promise<void> {
  await test.db
    .insertInto('tokens')
    .values({
      token_data_id: id,
      token_standard: 'v2',
      collection_id: collection,
      creator_address: '0xc1',
      collection_name: 'Cats',
      token_name: id,
      description: null,
      token_uri: `https://example.test/${id}.json`,
      properties: null,
      supply: '1',
      maximum: '1',
      largest_property_version: '0',
      is_burned: false,
      lootbox_id: null,
      lootbox_tier: null,
      minted_at: null,
      minted_version: version,
      last_transaction_version: version,
    })
    .execute();
}

/** A successful fetch of `target`'s document, due again in a day. */
function fetched(target: MetadataTarget, at: Date): MetadataOutcome {
  return {
    target,
    fetchedAt: at,
    refreshAt: new Date(at.getTime() + 86_400_000),
    status: 'ok',
    error: null,
    contentHash: `h-${target.subjectId}-${target.subjectVersion}`,
    name: target.subjectId,
    description: null,
    image: null,
    animationUrl: null,
    externalUrl: null,
    attributes: [],
    files: null,
    category: null,
    report: null,
  };
}

describe('metadata_pending: what the crawl lists', () => {
  let test: TestDatabase;
  const now = new Date('2026-11-28T00:00:00Z');
  const tokensDue = async (collection = COLLECTION) =>
    (await listMetadataDue(test.db, collection, now, 100))
      .filter((t) => t.kind === 'token')
      .map((t) => `${t.subjectId}@${t.subjectVersion}`)
      .sort();
  const pending = async () =>
    (
      await sql<{
        p: string;
      }>`SELECT token_data_id || '@' || version AS p FROM metadata_pending ORDER BY 1`.execute(test.db)
    ).rows.map((r) => r.p);
  const crawl = async (collection = COLLECTION) => {
    const targets = await listMetadataDue(test.db, collection, now, 100);
    await saveMetadataOutcomes(
      test.db,
      targets.map((t) => fetched(t, now)),
    );
  };

  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test?.drop());

  it('lists a minted token until its document is stored, then a mutated one, and never a burned one', async () => {
    await mint(test, '0xa1');
    await mint(test, '0xa2');
    await mint(test, '0xb1', OTHER);
    expect(await tokensDue()).toEqual(['0xa1@1', '0xa2@1']);
    expect(await listMetadataCollectionsDue(test.db, now, 10)).toEqual(
      expect.arrayContaining([COLLECTION, OTHER]),
    );
    await crawl();
    expect(await tokensDue()).toEqual([]);
    expect(await pending()).toEqual(['0xb1@1']);
    // A mutation (new version and URI), an update that changes neither (a supply), a burn.
    await sql`UPDATE tokens SET last_transaction_version = 5, token_uri = 'https://example.test/new.json'
               WHERE token_data_id = '0xa1'`.execute(test.db);
    await sql`UPDATE tokens SET supply = 1 WHERE token_data_id = '0xa2'`.execute(test.db);
    await sql`UPDATE tokens SET is_burned = true, last_transaction_version = 6 WHERE token_data_id = '0xb1'`.execute(
      test.db,
    );
    expect(await pending()).toEqual(['0xa1@5']);
    expect(await tokensDue()).toEqual(['0xa1@5']);
    expect(await tokensDue(OTHER)).toEqual([]);
    await crawl();
    expect(await pending()).toEqual([]);
    expect(await listMetadataCollectionsDue(test.db, now, 10)).not.toContain(COLLECTION);
    // Past its refresh time a stored document is due again, pending or not.
    const later = new Date(now.getTime() + 2 * 86_400_000);
    const refresh = (await listMetadataDue(test.db, COLLECTION, later, 100)).filter(
      (t) => t.kind === 'token',
    );
    expect(refresh.map((t) => t.subjectId).sort()).toEqual(['0xa1', '0xa2']);
    expect(await listMetadataCollectionsDue(test.db, later, 10)).toContain(COLLECTION);
  });

  it('keeps a token pending when it is mutated while the crawler stores the version before', async () => {
    await mint(test, '0xd1', COLLECTION, 10);
    const [listed] = (await listMetadataDue(test.db, COLLECTION, now, 100)).filter(
      (t) => t.subjectId === '0xd1',
    );
    expect(listed?.subjectVersion).toBe(10);
    // The mutation commits after the listing and before the crawler stores what it fetched.
    await sql`UPDATE tokens SET last_transaction_version = 11 WHERE token_data_id = '0xd1'`.execute(test.db);
    await saveMetadataOutcomes(test.db, [fetched(listed as MetadataTarget, now)]);
    expect(await pending()).toEqual(['0xd1@11']);
    expect(await tokensDue()).toEqual(['0xd1@11']);
    await crawl();
    expect(await pending()).toEqual([]);
  });

  it('a version gone back (a restore) leaves no pending row the crawl never clears', async () => {
    await mint(test, '0xe1', COLLECTION, 20);
    await crawl();
    await sql`UPDATE tokens SET last_transaction_version = 15 WHERE token_data_id = '0xe1'`.execute(test.db);
    expect(await pending()).toEqual(['0xe1@15']);
    // Its document is for a later version: not due, and the next listing clears the row.
    expect(await tokensDue()).toEqual([]);
    expect(await pending()).toEqual([]);
  });

  it('a deleted or truncated token is not pending', async () => {
    await mint(test, '0xf1');
    await mint(test, '0xf2');
    await sql`DELETE FROM tokens WHERE token_data_id = '0xf1'`.execute(test.db);
    expect(await pending()).toEqual(['0xf2@1']);
    await sql`TRUNCATE tokens CASCADE`.execute(test.db);
    expect(await pending()).toEqual([]);
  });
});
