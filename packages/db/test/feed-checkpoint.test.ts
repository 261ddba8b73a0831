import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedHead, indexedEnd } from '../src/feed';
import { feedIndexedVersion, MAIN_CHECKPOINT } from '../src/index';
import { emptyBatch, writeBatch } from '../src/ingest';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/*
 * History is split into `mdq backfill` ranges that run beside the tip follower, each with its own
 * checkpoint. A range ahead of the follower must not move the feed: the follower has yet to write
 * the versions in between, and events the feed has passed are never streamed.
 */
describe('the checkpoint the feed follows', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  it('is the highest while only ranged runs have written', async () => {
    expect(await feedIndexedVersion(test.db)).toBeNull();
    expect(await feedHead(test.db)).toBeNull();
    await writeBatch(test.db, emptyBatch('range:1000-2000', 2000));
    expect(await feedIndexedVersion(test.db)).toBe(2000);
  });

  it("is the tip follower's once it has one, even behind a range", async () => {
    await writeBatch(test.db, emptyBatch(MAIN_CHECKPOINT, 100));
    expect(await feedIndexedVersion(test.db)).toBe(100);
    expect(await feedHead(test.db)).toEqual(indexedEnd(100));
    await writeBatch(test.db, emptyBatch(MAIN_CHECKPOINT, 2500));
    expect(await feedIndexedVersion(test.db)).toBe(2500);
  });
});
