import { readFileSync } from 'node:fs';
import { type Kysely, sql } from 'kysely';

/*
 * The database's own functions (the triggers' and the ones SQL calls) live one per file in
 * functions/, named for the function, each file its `CREATE OR REPLACE FUNCTION` statement; the
 * migrations apply them from there (packages/db README, "Database functions").
 *
 * The files are read beside this module when a migration runs: from source that is src/functions/;
 * in the release bundle this module is a chunk in dist/, and the CLI build copies the files to
 * dist/functions/ (apps/cli/scripts/build.ts).
 */

/** The statement of functions/<name>.sql, which creates or replaces the database function `name`. */
export function functionSql(name: string): string {
  return readFileSync(new URL(`./functions/${name}.sql`, import.meta.url), 'utf8');
}

/** Creates or replaces each named database function from its file, in the order given. */
export async function createFunctions(db: Kysely<unknown>, ...names: string[]): Promise<void> {
  for (const name of names) await sql.raw(functionSql(name)).execute(db);
}
