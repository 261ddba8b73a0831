import { type RawBuilder, sql } from 'kysely';

/*
 * A subquery's rows as a JSON column of the statement that selects it: one answer's parts (a listing
 * card's, an analytics figure's) in one statement, one round trip. Columns read the same in JSON as
 * in a row when u64 numerics are selected as text. The rows keep the subquery's order.
 */

/** The rows of a subquery as one JSON array ([] when none). */
export const jsonRows = (rows: RawBuilder<unknown>) =>
  sql`(SELECT coalesce(json_agg(x), '[]') FROM (${rows}) x)`;

/** The first row of a subquery as a JSON object (null when none). */
export const jsonRow = (rows: RawBuilder<unknown>) => sql`(SELECT to_json(x) FROM (${rows}) x LIMIT 1)`;
