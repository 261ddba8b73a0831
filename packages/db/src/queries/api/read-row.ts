import type { Selectable } from 'kysely';

/** A timestamp as a read returns it: a Date as a row's column, an ISO string inside JSON (listing card). */
type AsRead<V> = V extends Date ? Date | string : V;

/**
 * A table's row as the read queries see it, derived from the table in `../../schema` (the one
 * description of its columns): a read row type is a `Pick` of it, so a renamed or retyped column
 * fails the readers' typecheck instead of drifting.
 */
export type ReadRow<Table> = { [K in keyof Selectable<Table>]: AsRead<Selectable<Table>[K]> };
