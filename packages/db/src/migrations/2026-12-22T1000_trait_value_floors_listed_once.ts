import type { Kysely } from 'kysely';
import { createFunctions } from '../functions';

/*
 * trait_value_floors_recount reads each listed token's attribute rows once, before they meet the
 * values being recounted: the planner, with no estimate for the collection's active listings (it
 * guessed 2 of the 1M chain's largest collection's 653), joined the listings to the values first
 * and probed every listing's attributes once per value of its collection. Recounting one listed
 * token's 8 values there read 33,266 buffers in 80 ms (126 ms a recount under the live bench, the
 * indexer's costliest statement after the worker's rarity rewrites); now 44 ms. Same floors.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createFunctions(db, 'trait_value_floors_recount');
}
