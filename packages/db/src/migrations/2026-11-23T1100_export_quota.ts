import { type Kysely, sql } from 'kysely';

/** Rows exported per API key and UTC day, for the per-key export quota (bulk export, issue #18). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE IF NOT EXISTS export_usage (
      key_id text NOT NULL,
      day date NOT NULL,
      rows bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (key_id, day)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS export_usage`.execute(db);
}
