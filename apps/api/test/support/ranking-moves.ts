import { type Db, sql } from '@mdq/db';
import type { FeedEvent } from '@mdq/db/feed';
import { readRanking } from '@mdq/db/worker';
import { computeCollectionRanking } from '@mdq/worker';

/** What a `ranking_changed` event says, in a shape a test can compare. */
interface RankingMove {
  ranking: string;
  collectionId: string;
  rank: number | null;
  previousRank: number | null;
}

/** The feed's documented rule, the test's own way: a change of place involving the top `top`. */
function movesBetween(
  ranking: string,
  before: readonly { collectionId: string | null; position: number }[],
  after: readonly { collectionId: string | null; position: number }[],
  top: number,
): RankingMove[] {
  const place = (list: typeof before) =>
    new Map(list.flatMap((r) => (r.collectionId === null ? [] : [[r.collectionId, r.position] as const])));
  const was = place(before);
  const is = place(after);
  const watched = new Set([...was, ...is].filter(([, p]) => p <= top).map(([id]) => id));
  const moves = [...watched]
    .map((collectionId) => ({
      ranking,
      collectionId,
      rank: is.get(collectionId) ?? null,
      previousRank: was.get(collectionId) ?? null,
    }))
    .filter((m) => m.rank !== m.previousRank);
  const last = Number.MAX_SAFE_INTEGER;
  return moves.sort(
    (a, b) => (a.rank ?? last) - (b.rank ?? last) || (a.previousRank ?? last) - (b.previousRank ?? last),
  );
}

/**
 * Runs the worker's trending and top rankings as its schedule would, at the chain's latest block
 * time, and records the moves each run must put in the feed: the stored order before and after
 * the run, compared here (not read from the feed's own rows).
 */
export class RankingRuns {
  readonly expected: RankingMove[] = [];
  /** How many moves each run made (a run that moves nothing is legitimate, but not all of them). */
  readonly perRun: number[] = [];

  constructor(
    private readonly db: Db,
    private readonly top: number,
  ) {}

  async run(): Promise<void> {
    const { rows } = await sql<{ at: Date }>`
      SELECT max(last_timestamp) AS at FROM indexer_checkpoints`.execute(this.db);
    const now = new Date((rows[0]?.at ?? new Date()).getTime() + 1_000);
    const before = this.expected.length;
    for (const ranking of ['trending', 'top'] as const) {
      const was = await readRanking(this.db, ranking);
      await computeCollectionRanking(this.db, ranking, now);
      const is = await readRanking(this.db, ranking);
      this.expected.push(...movesBetween(ranking, was, is, this.top));
    }
    this.perRun.push(this.expected.length - before);
  }
}

export function rankingMovesOf(events: readonly FeedEvent[]): RankingMove[] {
  return events.flatMap((e) =>
    e.kind === 'ranking_changed' && e.ranking && e.collectionId
      ? [
          {
            ranking: e.ranking.name,
            collectionId: e.collectionId,
            rank: e.ranking.rank,
            previousRank: e.ranking.previousRank,
          },
        ]
      : [],
  );
}
