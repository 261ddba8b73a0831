import { type Kysely, sql } from 'kysely';

/**
 * Thumbnails the worker pre-renders, with the outcome of the last attempt (issue #18): a failure
 * keeps its reason and the time of the next attempt (exponential backoff), so a broken original
 * is neither fetched on every run nor forgotten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE IF NOT EXISTS media_renders (
      media_id text NOT NULL,
      width integer NOT NULL,
      format text NOT NULL,
      source_uri text,
      status text NOT NULL CHECK (status IN ('ok', 'failed')),
      reason text,
      attempts integer NOT NULL DEFAULT 0,
      attempted_at timestamptz NOT NULL,
      next_attempt_at timestamptz,
      PRIMARY KEY (media_id, width, format)
    )`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS media_renders_failed ON media_renders (next_attempt_at)
             WHERE status = 'failed'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS media_renders`.execute(db);
}
