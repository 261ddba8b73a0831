import { type Kysely, sql } from 'kysely';

/*
 * Off-chain metadata documents (issue #41): what the worker's crawler fetched from each token's and
 * collection's URI, its parsed fields, the validation report and the outcome; and the source of each
 * trait row. `token_attributes` stays the one table of a token's traits that every reader (token/traits,
 * trait floors, OpenRarity, search) and the trait-count triggers read: the indexer writes the on-chain
 * property map as `source = 'chain'`, the crawler the document's attributes as `source = 'document'`,
 * and one (token, trait type) holds one row — the on-chain value when both name it (docs/DECISIONS.md).
 * A column with a constant default is a catalogue change on PostgreSQL 11+ (no table rewrite).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE token_attributes ADD COLUMN IF NOT EXISTS source text NOT NULL DEFAULT 'chain'
             CHECK (source IN ('chain', 'document'))`.execute(db);
  await sql`
    CREATE TABLE IF NOT EXISTS metadata_documents (
      kind text NOT NULL CHECK (kind IN ('token', 'collection')),
      subject_id text NOT NULL,
      collection_id text NOT NULL,
      uri text,
      subject_version bigint NOT NULL,
      status text NOT NULL CHECK (status IN ('ok', 'error')),
      error text,
      content_hash text,
      name text,
      description text,
      image text,
      animation_url text,
      external_url text,
      attributes jsonb,
      files jsonb,
      category text,
      report jsonb,
      attempts integer NOT NULL DEFAULT 0,
      fetched_at timestamptz NOT NULL,
      changed_at timestamptz,
      refresh_at timestamptz NOT NULL,
      PRIMARY KEY (kind, subject_id)
    )`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS metadata_documents_collection ON metadata_documents (collection_id)`.execute(
    db,
  );
  await sql`CREATE INDEX IF NOT EXISTS metadata_documents_refresh ON metadata_documents (refresh_at)`.execute(
    db,
  );
  // Token answers read it: a crawl must move the API's read version like any other write
  // (migration 2026-11-23T1000), or a cached answer would keep saying "pending".
  await sql`CREATE OR REPLACE TRIGGER metadata_documents_read_version
              AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON metadata_documents
              FOR EACH STATEMENT EXECUTE FUNCTION bump_read_version()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS metadata_documents`.execute(db);
  await sql`DELETE FROM token_attributes WHERE source = 'document'`.execute(db);
  await sql`ALTER TABLE token_attributes DROP COLUMN IF EXISTS source`.execute(db);
}
