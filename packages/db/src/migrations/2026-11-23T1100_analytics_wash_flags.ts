import { type Kysely, sql } from 'kysely';

/*
 * Wash-trade flags on sales (issue #17) and the indexes of the analytics read paths:
 * - `seller_funded`: the decoder saw the seller pay the buyer the price in the sale's transaction;
 * - `wash_flags`: the reasons a sale is flagged (empty = clean), kept by the indexer (ingest/wash-flags.ts);
 * - sales of a collection by time carrying what stats, history and top traders read (index-only);
 * - sales of a token by time, for the per-token rules (round trip, churn).
 * Adding a column with a constant default rewrites nothing in Postgres 11+.
 */
const SALE = `kind IN ('fill_listing', 'fill_token_offer', 'fill_collection_offer')`;
const statements = [
  'ALTER TABLE marketplace_activities ADD COLUMN IF NOT EXISTS seller_funded boolean NOT NULL DEFAULT false',
  `ALTER TABLE marketplace_activities ADD COLUMN IF NOT EXISTS wash_flags text[] NOT NULL DEFAULT '{}'`,
  `CREATE INDEX IF NOT EXISTS market_activities_collection_sales ON marketplace_activities (collection_id, transaction_timestamp)
     INCLUDE (price, coin_type, buyer, seller, wash_flags, token_data_id) WHERE ${SALE}`,
  `CREATE INDEX IF NOT EXISTS market_activities_token_sales ON marketplace_activities (token_data_id, transaction_timestamp)
     INCLUDE (seller, buyer, seller_funded) WHERE ${SALE}`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('DROP INDEX IF EXISTS market_activities_token_sales').execute(db);
  await sql.raw('DROP INDEX IF EXISTS market_activities_collection_sales').execute(db);
  await sql.raw('ALTER TABLE marketplace_activities DROP COLUMN IF EXISTS wash_flags').execute(db);
  await sql.raw('ALTER TABLE marketplace_activities DROP COLUMN IF EXISTS seller_funded').execute(db);
}
