/*
 * The statement-level triggers that keep a derived table in the writing transaction (the trait
 * counts, the name stems, the crawler's pending tokens, the active listings): one per event, the
 * row events handing their rows over as transition tables (`new_rows`, `old_rows`), TRUNCATE its
 * own function. Postgres allows transition tables on a trigger of one event only, hence four.
 */

/** The CREATE and DROP statements of a trigger. */
export interface TriggerStatements {
  create: string;
  drop: string;
}

const REFERENCING = {
  insert: 'REFERENCING NEW TABLE AS new_rows',
  update: 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows',
  delete: 'REFERENCING OLD TABLE AS old_rows',
  truncate: '',
} as const;

/**
 * Triggers `<prefix>_insert`, `_update`, `_delete` (running `onRows`) and `_truncate` (running
 * `onTruncate`) after each statement on `table`.
 */
export function statementTriggers(
  table: string,
  prefix: string,
  onRows: string,
  onTruncate: string,
): TriggerStatements[] {
  return (Object.keys(REFERENCING) as (keyof typeof REFERENCING)[]).map((event) => ({
    create: `CREATE OR REPLACE TRIGGER ${prefix}_${event} AFTER ${event.toUpperCase()} ON ${table}
       ${REFERENCING[event]} FOR EACH STATEMENT EXECUTE FUNCTION ${event === 'truncate' ? onTruncate : onRows}()`,
    drop: `DROP TRIGGER IF EXISTS ${prefix}_${event} ON ${table}`,
  }));
}

/**
 * A data table's read-version triggers, `<table>_read_version_<event>` (bump_read_version_of_rows,
 * migration 2026-12-13T1000): a statement that wrote a row, or a TRUNCATE, moves the table's write
 * counter, which keys the API's cached answers. A table a later migration creates gets these.
 */
export function readVersionTriggers(table: string): TriggerStatements[] {
  return statementTriggers(
    table,
    `${table}_read_version`,
    'bump_read_version_of_rows',
    'bump_read_version_of_rows',
  );
}
