import { sql } from '@mdq/db';
import { type FeedEvent, RANKING_EVENT_OFFSET } from '@mdq/db/feed';
import { emptyBatch, writeBatch } from '@mdq/db/ingest';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type RankingEntry, replaceRanking } from '@mdq/db/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedHub } from '../src/feed/feed-hub';
import { until } from './support/feed-consumers';

const entry = (collectionId: string, score: number): RankingEntry => ({
  collectionId,
  lootboxId: null,
  score,
  metrics: {},
});

/** Backends of this database that wait for a lock, with their statements. */
async function lockWaiters(test: TestDatabase): Promise<string[]> {
  const { rows } = await sql<{ query: string }>`
    SELECT query FROM pg_stat_activity
     WHERE datname = current_database() AND cardinality(pg_blocking_pids(pid)) > 0`.execute(test.db);
  return rows.map((r) => r.query.toLowerCase());
}

/*
 * The worker writes ranking changes after the indexer has moved on: their rows must never land
 * behind a position the feed already passed. The interleaving that would lose them is driven by
 * hand with three connections (a ranking write held just before its insert, an indexer batch, a
 * feed poll): with the checkpoint lock the batch waits for the ranking write and the feed hands
 * out every row; without it the batch commits first and the feed passes the rows for good.
 */
describe('ranking changes and the indexer checkpoint', () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await createTestDatabase();
    await writeBatch(test.db, emptyBatch('main', 10));
  });

  afterAll(async () => {
    await test?.drop();
  });

  it('holds the checkpoint until the ranking rows commit, so a live feed never passes them', async () => {
    const hub = new FeedHub({ db: test.db, pollMs: 3_600_000 });
    const got: FeedEvent[] = [];
    hub.subscribe({ deliver: (events) => got.push(...events) });
    await hub.ready();

    // Holds the ranking write right before its insert: its table is share-locked here.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let blocking = () => {};
    const blocked = new Promise<void>((resolve) => {
      blocking = resolve;
    });
    const blocker = test.db.transaction().execute(async (trx) => {
      await sql`LOCK TABLE collection_ranking_changes IN SHARE MODE`.execute(trx);
      blocking();
      await held;
    });
    await blocked;
    const ranking = replaceRanking(test.db, 'trending', [entry('0xa', 0.9), entry('0xb', 0.5)], {
      computedAt: new Date('2026-11-25T10:00:00Z'),
      windowStart: new Date('2026-11-18T10:00:00Z'),
      windowEnd: new Date('2026-11-25T10:00:00Z'),
      feedTop: 10,
    });
    await until('the ranking write to wait at its insert', async () =>
      (await lockWaiters(test)).some((q) => q.includes('insert into "collection_ranking_changes"')),
    );

    // The indexer commits the next batch meanwhile, or waits for the ranking write.
    let indexed = false;
    const batch = writeBatch(test.db, emptyBatch('main', 12)).then(() => {
      indexed = true;
    });
    await until(
      'the batch to commit or to wait for the checkpoint lock',
      async () => indexed || (await lockWaiters(test)).some((q) => q.includes('indexer_checkpoints')),
    );
    const batchWaited = !indexed;
    await hub.poll();

    release();
    await Promise.all([blocker, ranking, batch]);
    await hub.poll();
    await hub.stop();

    expect(got.map((e) => [e.id, e.kind, e.collectionId, e.ranking?.rank, e.ranking?.previousRank])).toEqual([
      [`10:${RANKING_EVENT_OFFSET}`, 'ranking_changed', '0xa', 1, null],
      [`10:${RANKING_EVENT_OFFSET + 1}`, 'ranking_changed', '0xb', 2, null],
    ]);
    expect(got[0]?.ranking).toMatchObject({ name: 'trending', window: '7d', top: 10 });
    expect(batchWaited, 'the indexer batch waited for the ranking write').toBe(true);
    expect(hub.head).toEqual({ version: 12, eventIndex: RANKING_EVENT_OFFSET - 1 });
  });

  it('appends later runs at the same checkpoint after the rows already read', async () => {
    const hub = new FeedHub({ db: test.db, pollMs: 3_600_000 });
    const got: FeedEvent[] = [];
    hub.subscribe({ deliver: (events) => got.push(...events) });
    await hub.ready();
    const run = (at: string, entries: RankingEntry[]) =>
      replaceRanking(test.db, 'trending', entries, {
        computedAt: new Date(at),
        windowStart: new Date(Date.parse(at) - 7 * 86_400_000),
        windowEnd: new Date(at),
        feedTop: 1,
      });
    // 0xb overtakes 0xa for the first place (the only one watched); then 0xc arrives at 3rd.
    await run('2026-11-25T11:00:00Z', [entry('0xb', 0.9), entry('0xa', 0.5)]);
    await hub.poll();
    await run('2026-11-25T12:00:00Z', [entry('0xb', 0.9), entry('0xa', 0.5), entry('0xc', 0.1)]);
    await run('2026-11-25T13:00:00Z', [entry('0xa', 0.8), entry('0xc', 0.6)]);
    await hub.poll();
    await hub.stop();
    expect(got.map((e) => [e.id, e.collectionId, e.ranking?.rank, e.ranking?.previousRank])).toEqual([
      [`12:${RANKING_EVENT_OFFSET}`, '0xb', 1, 2],
      [`12:${RANKING_EVENT_OFFSET + 1}`, '0xa', 2, 1],
      // The second run moves nothing within the first place; the third: 0xa back to 1st, 0xb gone.
      [`12:${RANKING_EVENT_OFFSET + 2}`, '0xa', 1, 2],
      [`12:${RANKING_EVENT_OFFSET + 3}`, '0xb', null, 1],
    ]);
  });
});
