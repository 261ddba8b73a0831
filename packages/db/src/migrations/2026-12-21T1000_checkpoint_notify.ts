import { type Kysely, sql } from 'kysely';
import { functionSql } from '../functions';

/*
 * Each checkpoint written announces its version and block time at the commit
 * (functions/notify_indexed_checkpoint.sql): an API that keys its answers on the announcements
 * (apps/api freshness.ts) took a reading of the checkpoint per block for its freshness headers,
 * which every request arriving meanwhile waited for; it now takes the version from the
 * notification. A row trigger, so that the notification comes before the statement's own
 * ('indexer_checkpoints'), which tells the API that the checkpoint moved.
 */
const UP = (): string[] => [
  functionSql('notify_indexed_checkpoint'),
  `CREATE OR REPLACE TRIGGER indexer_checkpoints_notify AFTER INSERT OR UPDATE ON indexer_checkpoints
     FOR EACH ROW EXECUTE FUNCTION notify_indexed_checkpoint()`,
];

const DOWN = [
  'DROP TRIGGER IF EXISTS indexer_checkpoints_notify ON indexer_checkpoints',
  'DROP FUNCTION IF EXISTS notify_indexed_checkpoint()',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP()) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
