import { type Kysely, sql } from 'kysely';

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

const UP = [
  `CREATE TABLE IF NOT EXISTS lootbox_revenue_days (
    lootbox_id bigint NOT NULL,
    coin_type text NOT NULL,
    day date NOT NULL,
    amount numeric NOT NULL,
    quantity numeric NOT NULL,
    purchases bigint NOT NULL,
    PRIMARY KEY (lootbox_id, coin_type, day)
  )`,
  `CREATE OR REPLACE FUNCTION lootbox_revenue_days_rebuild() RETURNS void LANGUAGE plpgsql AS $$
   BEGIN
     DELETE FROM lootbox_revenue_days;
     INSERT INTO lootbox_revenue_days (lootbox_id, coin_type, day, amount, quantity, purchases)
     SELECT lootbox_id, coin_type, (transaction_timestamp AT TIME ZONE 'UTC')::date,
            sum(amount_paid), sum(quantity), count(*)
       FROM lootbox_purchases GROUP BY 1, 2, 3;
   END $$`,
  `CREATE OR REPLACE FUNCTION lootbox_revenue_days_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM lootbox_revenue_days_rebuild();
     RETURN NULL;
   END $$`,
  // One row per touched day, summed before it is applied, in key order (concurrent writers lock
  // the rows in the same order). The transition tables a statement's event does not hand over are
  // not visible to the function, so each branch names only the ones its event has.
  `CREATE OR REPLACE FUNCTION lootbox_revenue_days_on_change() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'INSERT' THEN
       INSERT INTO lootbox_revenue_days AS d (lootbox_id, coin_type, day, amount, quantity, purchases)
       SELECT lootbox_id, coin_type, (transaction_timestamp AT TIME ZONE 'UTC')::date,
              sum(amount_paid), sum(quantity), count(*)
         FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
       ON CONFLICT (lootbox_id, coin_type, day) DO UPDATE SET
         amount = d.amount + excluded.amount, quantity = d.quantity + excluded.quantity,
         purchases = d.purchases + excluded.purchases;
     ELSIF TG_OP = 'DELETE' THEN
       INSERT INTO lootbox_revenue_days AS d (lootbox_id, coin_type, day, amount, quantity, purchases)
       SELECT lootbox_id, coin_type, (transaction_timestamp AT TIME ZONE 'UTC')::date,
              -sum(amount_paid), -sum(quantity), -count(*)
         FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
       ON CONFLICT (lootbox_id, coin_type, day) DO UPDATE SET
         amount = d.amount + excluded.amount, quantity = d.quantity + excluded.quantity,
         purchases = d.purchases + excluded.purchases;
     ELSE
       INSERT INTO lootbox_revenue_days AS d (lootbox_id, coin_type, day, amount, quantity, purchases)
       SELECT lootbox_id, coin_type, day, sum(amount), sum(quantity), sum(purchases) FROM (
         SELECT lootbox_id, coin_type, (transaction_timestamp AT TIME ZONE 'UTC')::date AS day,
                amount_paid AS amount, quantity, 1 AS purchases FROM new_rows
         UNION ALL
         SELECT lootbox_id, coin_type, (transaction_timestamp AT TIME ZONE 'UTC')::date,
                -amount_paid, -quantity, -1 FROM old_rows) x
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
       ON CONFLICT (lootbox_id, coin_type, day) DO UPDATE SET
         amount = d.amount + excluded.amount, quantity = d.quantity + excluded.quantity,
         purchases = d.purchases + excluded.purchases;
     END IF;
     RETURN NULL;
   END $$`,
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
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
