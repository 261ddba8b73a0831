import { type Kysely, sql } from 'kysely';
import { functionSql } from '../functions';

/*
 * The tokens whose document the metadata crawler may still have to fetch (metadata_pending), kept
 * by a statement-level trigger on tokens (functions/metadata_pending_on_tokens.sql) in the writing
 * transaction, and emptied by the crawler as it stores documents. The crawler found them by
 * comparing every live token with its document: the minute sweep an anti-join over the whole
 * tokens table (4.5 s on the 1M devnet chain's 481,691 tokens, every minute), and each crawl of a
 * collection all of its tokens (a parallel sequential scan of tokens, 438 ms for its largest
 * collection). Now both read the pending rows and the documents past their refresh time, which are
 * few. Filled once here with the tokens that are due now. No cached answer reads the table: it
 * has no read-version trigger (UNVERSIONED_TABLES).
 */

/** Each trigger once: what it fires on and the transition tables it hands over. */
const TRIGGERS = (
  [
    ['insert', 'REFERENCING NEW TABLE AS new_rows'],
    ['update', 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows'],
    ['delete', 'REFERENCING OLD TABLE AS old_rows'],
    ['truncate', ''],
  ] as const
).map(([event, referencing]) => ({
  create: `CREATE OR REPLACE TRIGGER tokens_metadata_pending_${event} AFTER ${event.toUpperCase()} ON tokens
     ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION metadata_pending_on_tokens()`,
  drop: `DROP TRIGGER IF EXISTS tokens_metadata_pending_${event} ON tokens`,
}));

/** A function, not a list: the function file is read when the migration runs, not on import. */
const UP = (): string[] => [
  `CREATE TABLE IF NOT EXISTS metadata_pending (
    token_data_id text PRIMARY KEY,
    collection_id text NOT NULL,
    version bigint NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS metadata_pending_collection ON metadata_pending (collection_id)',
  functionSql('metadata_pending_on_tokens'),
  ...TRIGGERS.map((t) => t.create),
  `INSERT INTO metadata_pending (token_data_id, collection_id, version)
   SELECT t.token_data_id, t.collection_id, t.last_transaction_version FROM tokens t
    WHERE NOT t.is_burned AND NOT EXISTS (
      SELECT 1 FROM metadata_documents d WHERE d.kind = 'token' AND d.subject_id = t.token_data_id
         AND d.subject_version >= t.last_transaction_version AND d.uri IS NOT DISTINCT FROM t.token_uri)
   ON CONFLICT (token_data_id) DO NOTHING`,
  'ANALYZE metadata_pending',
];

const DOWN = [
  ...TRIGGERS.map((t) => t.drop),
  'DROP FUNCTION IF EXISTS metadata_pending_on_tokens()',
  'DROP TABLE IF EXISTS metadata_pending',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP()) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
