import type { Mismatch } from './mismatch';

/**
 * Deliberate differences from the official Aptos processors' rows. Every mismatch the conformance
 * tests find must match one of these, every entry must still be needed, and every id must appear
 * in packages/chain/CONFORMANCE.md (checked by the test).
 */
export interface Deviation {
  id: string;
  tables: string[];
  fields: string[];
  kinds: Mismatch['kind'][];
  /** Test folders it applies to; all when absent. */
  tests?: string[];
  /** Row kinds (our activity kind or standard event type) it applies to; all when absent. */
  contexts?: string[];
  reason: string;
}

const MARKET_TABLES = [
  'nft_marketplace_activities',
  'current_nft_marketplace_listings',
  'current_nft_marketplace_token_offers',
  'current_nft_marketplace_collection_offers',
];

export const DEVIATIONS: Deviation[] = [
  {
    id: 'M1',
    tables: ['nft_marketplace_activities'],
    fields: ['token_amount'],
    kinds: ['we-fill'],
    reason:
      'tokenAmount defaults to 1 (a listing or token offer is for one NFT); the official row leaves it null',
  },
  {
    id: 'M2',
    tables: MARKET_TABLES,
    fields: ['token_name', 'collection_id'],
    kinds: ['we-fill'],
    reason:
      'events that name only the token object (Tradeport v2) get the token name and collection from the same ' +
      "transaction's 0x4::token::Token / TokenIdentifiers for every row; the official config applies those lookups to some tables only",
  },
  {
    id: 'M3',
    tables: ['nft_marketplace_activities'],
    fields: ['buyer'],
    kinds: ['we-fill'],
    tests: ['tradeport_v2/tradeport_v2_fill_listing_test'],
    contexts: ['fill_listing'],
    reason:
      'Tradeport v2 BuyEvent buyer is read from `buyer`; the official config reads `$.buyert` (typo) and stores null',
  },
  {
    id: 'M4',
    tables: ['nft_marketplace_activities', 'current_nft_marketplace_token_offers'],
    fields: ['expiration_time'],
    kinds: ['we-fill'],
    contexts: ['place_token_offer'],
    reason:
      "Wapal token offer expiry is read from the offer object's token_offer::TokenOffer.expiration_time (seconds), " +
      'as the official config declares; its output leaves it null',
  },
  {
    id: 'M5',
    tables: ['current_nft_marketplace_collection_offers'],
    fields: ['remaining_token_amount'],
    kinds: ['we-fill'],
    tests: ['tradeport_v2/tradeport_v2_place_collection_offer_test'],
    reason: 'a Tradeport v2 collection bid object holds coins for exactly one token, so a new bid wants 1',
  },
  {
    id: 'T1',
    tables: ['token_activities_v2'],
    fields: ['*'],
    kinds: ['extra-row'],
    contexts: ['create'],
    reason:
      'v1 token data creation (CreateTokenDataEvent / TokenDataCreation) is a `create` activity; the official processor records none',
  },
  {
    id: 'T2',
    tables: ['token_activities_v2'],
    fields: ['from_address', 'to_address'],
    kinds: ['we-omit', 'we-fill'],
    contexts: ['mint'],
    reason:
      "a v2 mint goes to the token's owner: we put the owner in toAddress; the official row puts it in from_address",
  },
  {
    id: 'T3',
    tables: ['current_collections_v2'],
    fields: ['*'],
    kinds: ['extra-row'],
    tests: ['test_token_v1_with_module_events'],
    reason:
      'a v1 CollectionData write whose Collections resource is not in the transaction is keyed by the creator that the ' +
      "transaction's own token ids name for that collection; the official processor drops it without a stored table handle",
  },
  {
    id: 'T4',
    tables: ['current_token_ownerships_v2'],
    fields: ['*'],
    kinds: ['missing-row', 'extra-row'],
    tests: ['mint_and_burn_event'],
    reason:
      'a token minted and burned in the same transaction: the official processor writes one placeholder row with owner ' +
      '`unknown`; we write amount 0 for each account its transfers named',
  },
];

export function explain(mismatch: Mismatch): Deviation | undefined {
  return DEVIATIONS.find(
    (deviation) =>
      deviation.tables.includes(mismatch.table) &&
      (deviation.fields.includes('*') || deviation.fields.includes(mismatch.field)) &&
      deviation.kinds.includes(mismatch.kind) &&
      (deviation.tests === undefined || deviation.tests.includes(mismatch.test)) &&
      (deviation.contexts === undefined ||
        (mismatch.context !== null && deviation.contexts.includes(mismatch.context))),
  );
}
