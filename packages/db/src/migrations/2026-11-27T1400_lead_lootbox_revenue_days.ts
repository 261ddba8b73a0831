import { type Kysely, sql } from 'kysely';
import { functionSql } from '../functions';

/*
 * Lootbox revenue per (lootbox, payment coin, UTC day), kept by the database in the writing
 * transaction (issue #22). `lootbox-revenue` summed every purchase of the lootbox in its window on
 * each request (5,500 purchases of one lootbox on the 1M chain for `timeframe=all`, each a heap
 * visit for the coin and quantity), and the indexer recounted the same sums for every lootbox a
 * batch touched, a cost that grew with the table. Now a window is its whole days from this table
 * plus the purchases of its two partial days (queries/api/lootbox.ts, lootboxRevenue), and the
 * counters read the days.
 *
 * Statement-level triggers with transition tables keep the days, like the trait counts
 * (2026-11-26T1000): every writer keeps them, and a replayed batch inserts no purchase (ON CONFLICT
 * DO NOTHING), so it changes no day. A day whose purchases are all deleted keeps a zero row: the
 * readers sum, so a zero adds nothing. TRUNCATE of the purchases rebuilds the days.
 *
 * The purchases' lootbox index now covers what the partial days read (coin, amount, quantity), so
 * those rows come from the index alone.
 */

/** Each trigger once: the event and the transition tables it hands over. */
const TRIGGERS = (
  [
    ['insert', 'REFERENCING NEW TABLE AS new_rows'],
    ['update', 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows'],
    ['delete', 'REFERENCING OLD TABLE AS old_rows'],
    ['truncate', ''],
  ] as const
).map(([event, referencing]) => ({
  create: `CREATE OR REPLACE TRIGGER lootbox_purchases_days_${event} AFTER ${event.toUpperCase()} ON lootbox_purchases
     ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION lootbox_revenue_days_on_${event === 'truncate' ? 'truncate' : 'change'}()`,
  drop: `DROP TRIGGER IF EXISTS lootbox_purchases_days_${event} ON lootbox_purchases`,
}));

/** A function, not a list: the function files are read when the migration runs, not on import. */
const UP = (): string[] => [
  `CREATE TABLE IF NOT EXISTS lootbox_revenue_days (
    lootbox_id bigint NOT NULL,
    coin_type text NOT NULL,
    day date NOT NULL,
    amount numeric NOT NULL,
    quantity numeric NOT NULL,
    purchases bigint NOT NULL,
    PRIMARY KEY (lootbox_id, coin_type, day)
  )`,
  functionSql('lootbox_revenue_days_rebuild'),
  functionSql('lootbox_revenue_days_on_truncate'),
  functionSql('lootbox_revenue_days_on_change'),
  ...TRIGGERS.map((t) => t.create),
  'SELECT lootbox_revenue_days_rebuild()',
  `CREATE INDEX IF NOT EXISTS lootbox_purchases_lootbox_covering
     ON lootbox_purchases (lootbox_id, transaction_timestamp) INCLUDE (coin_type, amount_paid, quantity)`,
  'DROP INDEX IF EXISTS lootbox_purchases_lootbox',
  'ALTER INDEX lootbox_purchases_lootbox_covering RENAME TO lootbox_purchases_lootbox',
];

const DOWN = [
  ...TRIGGERS.map((t) => t.drop),
  'DROP FUNCTION IF EXISTS lootbox_revenue_days_on_change()',
  'DROP FUNCTION IF EXISTS lootbox_revenue_days_on_truncate()',
  'DROP FUNCTION IF EXISTS lootbox_revenue_days_rebuild()',
  'DROP TABLE IF EXISTS lootbox_revenue_days',
  `CREATE INDEX IF NOT EXISTS lootbox_purchases_lootbox_amount
     ON lootbox_purchases (lootbox_id, transaction_timestamp) INCLUDE (amount_paid)`,
  'DROP INDEX IF EXISTS lootbox_purchases_lootbox',
  'ALTER INDEX lootbox_purchases_lootbox_amount RENAME TO lootbox_purchases_lootbox',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP()) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
