import type { Kysely } from 'kysely';
import { createFunctions } from '../functions';

/*
 * active_listings_matching tests a listing's collection before its name: the rows the trigram and
 * collection indexes find are all tested again, in the order the condition is written, and with the
 * collection's membership first the trigram similarity of every listing of a matching collection is
 * not computed. Same rows. On the 1M devnet chain the statement alone, counting its rows, took 8.4 ->
 * 7.0 ms for a collection's name and 5.4 -> 3.8 ms for a word; the function, which also copies every
 * match's whole row into its result (about half of its time), about 4% less over four texts. The
 * listing searches are the API's costliest statements under the live bench.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createFunctions(db, 'active_listings_matching');
}
