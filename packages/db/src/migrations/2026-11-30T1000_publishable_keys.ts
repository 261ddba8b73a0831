import { type Kysely, sql } from 'kysely';

/*
 * Two kinds of API key (issue #40). `secret` is every key so far: servers, every route.
 * `publishable` is meant for a browser page's source: accepted only with an `Origin` among
 * `allowed_origins` (exact origins or `https://*.domain` patterns, as MDQ_CORS_ORIGINS), read routes
 * only, rate-limited per visitor. The CHECK keeps a publishable key from existing without origins.
 * Plain ADD COLUMN with constant defaults: no table rewrite on PG 11+, so PG 15 and the embedded 18
 * apply it alike.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE api_keys
      ADD COLUMN IF NOT EXISTS kind text NOT NULL DEFAULT 'secret',
      ADD COLUMN IF NOT EXISTS allowed_origins text[] NOT NULL DEFAULT '{}'`.execute(db);
  await sql`
    ALTER TABLE api_keys ADD CONSTRAINT api_keys_kind_origins CHECK (
      kind IN ('secret', 'publishable') AND (kind = 'secret' OR cardinality(allowed_origins) > 0)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE api_keys DROP CONSTRAINT IF EXISTS api_keys_kind_origins`.execute(db);
  await sql`ALTER TABLE api_keys DROP COLUMN IF EXISTS allowed_origins, DROP COLUMN IF EXISTS kind`.execute(
    db,
  );
}
