import { isSaleKind, SALE_KINDS } from '@mdq/chain';
import { type RawBuilder, sql } from 'kysely';

/*
 * The market's rules as every reader applies them (API answers, worker aggregates, exports, the
 * indexer's floor replay): which coin is native, which market events are sales. One module, so a
 * new sale kind or a second native coin type is one change.
 */

/** The network's native coin; a listing with no coin type recorded is priced in it. */
export const NATIVE_COIN = '0x1::aptos_coin::AptosCoin';

/** The native coin as a coin type and as its paired fungible-asset metadata address. */
export const NATIVE_COIN_TYPES = [
  NATIVE_COIN,
  '0x000000000000000000000000000000000000000000000000000000000000000a',
] as const;

/*
 * Marketplace configs without a coin field (most Aptos marketplaces only ever took APT) decode to a
 * NULL coin type, so NULL counts as native; any other coin never mixes into volumes or floors.
 */
export function isNativeCoin(column: string): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(column)} IS NULL OR ${sql.ref(column)} = ANY(${[...NATIVE_COIN_TYPES]}::text[]))`;
}

/** The same rule for a coin type in hand (the indexer's floor replay). */
export function isNativeCoinType(coinType: string | null): boolean {
  return coinType === null || (NATIVE_COIN_TYPES as readonly string[]).includes(coinType);
}

export { isSaleKind, SALE_KINDS };

/**
 * `('fill_listing', 'fill_token_offer', 'fill_collection_offer')` as SQL text: a literal list, not a
 * parameter, so that the planner matches the partial indexes declared with the same list
 * (market_activities_*_sales, migration 2026-11-22T0000) also in a prepared statement's generic plan.
 */
export const SALE_KINDS_LIST = `(${SALE_KINDS.map((kind) => `'${kind}'`).join(', ')})`;

/** `column IN (<the sale kinds>)`. */
export function isSale(column: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} IN ${sql.raw(SALE_KINDS_LIST)}`;
}
