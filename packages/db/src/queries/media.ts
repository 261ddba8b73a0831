import { sql } from 'kysely';
import type { Db } from '../database';

export interface MediaSource {
  kind: 'token' | 'collection';
  /** The crawled document's image, else the token's or collection's URI: an image, or metadata naming one. */
  uri: string | null;
}

/** What a media id names: a token (token data id / object address) or a collection. */
export async function mediaSourceOf(db: Db, id: string): Promise<MediaSource | null> {
  const { rows } = await sql<MediaSource>`${mediaSourceSql(id)}`.execute(db);
  return rows[0] ?? null;
}

/**
 * The picture of a token or collection: the `image` of its crawled document when there is one (the
 * last good document's, even after a failed refresh), else its URI (an image, or a document that the
 * renderer reads the image from).
 */
function mediaSourceSql(id: string) {
  const crawled = (kind: string) =>
    sql`(SELECT d.image FROM metadata_documents d WHERE d.kind = ${kind} AND d.subject_id = ${id})`;
  return sql`
    (SELECT 'token' AS kind, coalesce(${crawled('token')}, token_uri) AS uri FROM tokens WHERE token_data_id = ${id})
    UNION ALL
    (SELECT 'collection', coalesce(${crawled('collection')}, uri) FROM collections WHERE collection_id = ${id})
    LIMIT 1`;
}

/** Collections in the first `top` places of the given rankings, best place first, each once. */
export async function rankedCollectionIds(
  db: Db,
  rankings: readonly string[],
  top: number,
): Promise<string[]> {
  const { rows } = await sql<{ collection_id: string }>`
    SELECT collection_id FROM ranking_snapshots
     WHERE ranking = ANY(${[...rankings]}::text[]) AND position <= ${top} AND collection_id IS NOT NULL
     GROUP BY collection_id ORDER BY min(position), collection_id`.execute(db);
  return rows.map((r) => r.collection_id);
}

export interface MediaRenderKey {
  mediaId: string;
  width: number;
  format: string;
}

/** Of these ids, the ones whose last pre-render failed and whose next attempt is after `now`. */
export async function mediaRendersWaiting(
  db: Db,
  ids: readonly string[],
  width: number,
  format: string,
  now: Date,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('media_renders')
    .select('media_id')
    .where('media_id', 'in', [...ids])
    .where('width', '=', width)
    .where('format', '=', format)
    .where('status', '=', 'failed')
    .where('next_attempt_at', '>', now)
    .execute();
  return new Set(rows.map((r) => r.media_id));
}

/**
 * Records a pre-render: success clears the failure count; the n-th failure in a row schedules the
 * next attempt 2^(n-1) minutes later, at most a day.
 */
export async function recordMediaRender(
  db: Db,
  key: MediaRenderKey,
  outcome: { ok: true } | { ok: false; reason: string },
  now: Date,
): Promise<void> {
  const reason = outcome.ok ? null : outcome.reason.slice(0, 500);
  await sql`
    INSERT INTO media_renders AS m (media_id, width, format, source_uri, status, reason, attempts,
                                    attempted_at, next_attempt_at)
    SELECT ${key.mediaId}, ${key.width}, ${key.format},
           (SELECT uri FROM (${mediaSourceSql(key.mediaId)}) s), ${outcome.ok ? 'ok' : 'failed'}, ${reason},
           ${outcome.ok ? 0 : 1}, ${now}, ${outcome.ok ? null : new Date(now.getTime() + 60_000)}
    ON CONFLICT (media_id, width, format) DO UPDATE SET
      source_uri = excluded.source_uri, status = excluded.status, reason = excluded.reason,
      attempted_at = excluded.attempted_at,
      attempts = CASE WHEN excluded.status = 'ok' THEN 0 ELSE m.attempts + 1 END,
      next_attempt_at = CASE WHEN excluded.status = 'ok' THEN NULL
        ELSE excluded.attempted_at + least(interval '1 minute' * power(2, m.attempts), interval '1 day') END`.execute(
    db,
  );
}
