import { type Kysely, sql } from 'kysely';
import { createFunctions } from '../functions';

/*
 * Write counters per wallet bucket for the tables a wallet's pages read by a wallet column
 * (functions/bump_wallet_version.sql): a wallet's market activity, purchases and bids retire when
 * a write names a wallet of its bucket, not at every block. Keyed on the tables' global counters,
 * every block with a sale or a bid anywhere retired them all (7-9% hits under the live bench).
 * The counters share read_collection_versions (ids 'wallet:<bucket>'), its folding and its reading.
 */
const TABLES = ['marketplace_activities', 'token_offers', 'collection_offers'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await createFunctions(db, 'bump_wallet_version');
  for (const table of TABLES) {
    for (const [event, referencing] of [
      ['insert', 'REFERENCING NEW TABLE AS new_rows'],
      ['update', 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows'],
      ['delete', 'REFERENCING OLD TABLE AS old_rows'],
      ['truncate', ''],
    ] as const) {
      await sql
        .raw(
          `CREATE OR REPLACE TRIGGER ${table}_wallet_version_${event} AFTER ${event.toUpperCase()} ON ${table}
             ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION bump_wallet_version()`,
        )
        .execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION IF EXISTS bump_wallet_version() CASCADE`.execute(db);
}
