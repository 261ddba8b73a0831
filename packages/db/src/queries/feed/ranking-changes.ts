import { sql } from 'kysely';
import type { Db } from '../../database';
import { unnestInsert } from '../../ingest/bulk';
import type { RankingName } from '../../schema/index';
import { feedCheckpointRow } from '../checkpoints';
import { RANKING_EVENT_OFFSET } from './feed-events';

/** One collection's move in a ranking, as the feed reports it (`ranking_changed`). */
export interface RankingChange {
  collectionId: string;
  /** Position after the run; null when the collection is no longer ranked. */
  rank: number | null;
  /** Position before the run; null when it was not ranked. */
  previousRank: number | null;
  score: number | null;
}

interface Ranked {
  collectionId: string | null;
  position: number;
}

/**
 * The moves between two orders of one ranking that a front end showing its top `top` sees: every
 * collection whose position changed and that is in the top `top` before or after (entered, left,
 * or moved within it). Ordered by new position (those that left last), then old position.
 */
export function rankingChanges(
  before: readonly Ranked[],
  after: readonly (Ranked & { score: number })[],
  top: number,
): RankingChange[] {
  const was = new Map<string, number>();
  for (const r of before) if (r.collectionId !== null) was.set(r.collectionId, r.position);
  const changes: RankingChange[] = [];
  const seen = new Set<string>();
  for (const r of after) {
    if (r.collectionId === null) continue;
    seen.add(r.collectionId);
    const previousRank = was.get(r.collectionId) ?? null;
    if (previousRank === r.position) continue;
    if (r.position > top && (previousRank === null || previousRank > top)) continue;
    changes.push({ collectionId: r.collectionId, rank: r.position, previousRank, score: r.score });
  }
  const left = [...was].filter(([id, position]) => !seen.has(id) && position <= top);
  left.sort((a, b) => a[1] - b[1]);
  for (const [collectionId, previousRank] of left)
    changes.push({ collectionId, rank: null, previousRank, score: null });
  return changes;
}

/**
 * Appends a ranking run's changes to the feed. Call it LAST in the transaction that stores the
 * run (the lock below is held until commit, so the window is this insert and the commit).
 *
 * The feed reads every event up to the indexer checkpoint V and then stands at `indexedEnd(V)`;
 * a row written here is keyed `(V, RANKING_EVENT_OFFSET + i)`, after that mark. Two things make
 * the key safe for a reader that never looks back:
 * - the checkpoint table is locked against writers (SHARE ROW EXCLUSIVE: the indexer's checkpoint
 *   upsert waits, plain reads do not), so the checkpoint cannot pass V before this row commits
 *   and no reader can be past version V while the row is invisible;
 * - the lock conflicts with itself, so appenders run one at a time and the rows of one V commit
 *   in key order: a reader that has seen row i never finds a row below i appear later.
 */
export async function appendRankingChanges(
  trx: Db,
  run: {
    ranking: RankingName;
    top: number;
    windowStart: Date | null;
    computedAt: Date;
    changes: readonly RankingChange[];
  },
): Promise<number> {
  if (run.changes.length === 0) return 0;
  await sql`LOCK TABLE indexer_checkpoints IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
  const { rows } = await sql<{ v: string; at: Date | null; next: number }>`
    SELECT c.last_version::text AS v, c.last_timestamp AS at,
           coalesce((SELECT max(k.event_index) + 1 FROM collection_ranking_changes k
                      WHERE k.transaction_version = c.last_version), ${RANKING_EVENT_OFFSET}) AS next
      FROM ${feedCheckpointRow} c`.execute(trx);
  const head = rows[0];
  // Nothing indexed yet: nothing can have been ranked either.
  if (!head) return 0;
  const version = Number(head.v);
  return unnestInsert(
    trx,
    'collection_ranking_changes',
    {
      transaction_version: 'bigint',
      event_index: 'integer',
      ranking: 'text',
      collection_id: 'text',
      rank: 'integer',
      previous_rank: 'integer',
      score: 'double precision',
      top_n: 'integer',
      window_start: 'timestamptz',
      computed_at: 'timestamptz',
      transaction_timestamp: 'timestamptz',
    },
    run.changes.map((c, i) => ({
      transaction_version: version,
      event_index: head.next + i,
      ranking: run.ranking,
      collection_id: c.collectionId,
      rank: c.rank,
      previous_rank: c.previousRank,
      score: c.score,
      top_n: run.top,
      window_start: run.windowStart,
      computed_at: run.computedAt,
      transaction_timestamp: head.at ?? run.computedAt,
    })),
    '',
  );
}
