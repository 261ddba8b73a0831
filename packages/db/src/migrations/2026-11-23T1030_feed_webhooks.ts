import { type Kysely, sql } from 'kysely';

/*
 * Webhook endpoints of the live feed and their delivery log. An endpoint's backlog is not stored:
 * it is every feed event after its cursor, read from the event tables when it is delivered.
 */
const statements = [
  `CREATE TABLE IF NOT EXISTS webhook_endpoints (
    endpoint_id text PRIMARY KEY,
    key_id text NOT NULL REFERENCES api_keys (key_id) ON DELETE CASCADE,
    url text NOT NULL,
    secret text NOT NULL,
    filter jsonb NOT NULL DEFAULT '{}'::jsonb,
    status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
    failures integer NOT NULL DEFAULT 0,
    cursor_version bigint NOT NULL,
    cursor_event_index integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    paused_at timestamptz
  )`,
  'CREATE INDEX IF NOT EXISTS webhook_endpoints_key ON webhook_endpoints (key_id)',
  `CREATE TABLE IF NOT EXISTS webhook_deliveries (
    delivery_id bigserial PRIMARY KEY,
    endpoint_id text NOT NULL REFERENCES webhook_endpoints (endpoint_id) ON DELETE CASCADE,
    event_id text NOT NULL,
    attempted_at timestamptz NOT NULL DEFAULT now(),
    status_code integer,
    ok boolean NOT NULL,
    error text
  )`,
  'CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, delivery_id DESC)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('DROP TABLE IF EXISTS webhook_deliveries').execute(db);
  await sql.raw('DROP TABLE IF EXISTS webhook_endpoints').execute(db);
}
