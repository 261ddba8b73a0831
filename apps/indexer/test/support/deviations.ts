/** One field of one row where mdq and the official processor disagree. */
export interface Diff {
  table: string;
  key: string;
  field: string;
  expected: string | null;
  actual: string | null;
}

/**
 * Deliberate differences from the official processors' stored rows. Each one is explained in
 * docs/CONFORMANCE.md; a difference that matches none of these fails the conformance test.
 */
export interface Deviation {
  id: string;
  matches(processor: string, caseName: string): boolean;
  explains(diff: Diff): boolean;
}

const MINT_TYPES = new Set(['0x4::collection::Mint', '0x4::collection::MintEvent']);

export const DEVIATIONS: Deviation[] = [
  {
    // Official: a v2 mint row has from_address = the owner and to_address null; we record the
    // recipient as to_address (a mint moves a token *to* someone) and the event type as emitted.
    id: 'v2-mint-direction',
    matches: (p) => p === 'token_v2_processor',
    explains: (d) =>
      d.table === 'token_activities_v2' &&
      ((d.field === 'from_address' && d.actual === null) ||
        (d.field === 'to_address' && d.expected === null) ||
        (d.field === 'type_' && MINT_TYPES.has(d.expected ?? '') && MINT_TYPES.has(d.actual ?? ''))),
  },
  {
    // We keep a `create` activity for v1 token data creation, so a token's timeline starts there.
    id: 'v1-create-activity',
    matches: (p, c) =>
      p === 'token_v2_processor' &&
      ['test_token_v1_burn_event', 'test_token_v1_mutate_event', 'test_token_v1_with_module_events'].includes(
        c,
      ),
    explains: (d) => d.table === 'token_activities_v2' && d.field === '(row)' && d.actual === 'extra',
  },
  {
    // A v1 CollectionData table write is a collection we can show; the official v2 table skips it.
    id: 'v1-collection-from-table',
    matches: (p, c) => p === 'token_v2_processor' && c === 'test_token_v1_with_module_events',
    explains: (d) => d.table === 'current_collections_v2' && d.actual === 'extra',
  },
  {
    // We never invent a token row for a token burned before we saw it minted (no name, no URI to
    // show); the official keeps an empty tombstone row.
    id: 'no-tombstone-token',
    matches: (p, c) =>
      p === 'token_v2_processor' &&
      ['test_token_v2_burn_event_v1', 'test_token_v2_burn_event_v2', 'mint_and_burn_event'].includes(c),
    explains: (d) => d.table === 'current_token_datas_v2' && d.actual === 'missing',
  },
  {
    // A v1 token or collection named by an event (a TokenId carries creator, collection and name)
    // gets a placeholder row when its creation was not seen, so history that starts mid-chain can
    // still find it by name; the official v2 tables only take rows from TokenData / CollectionData
    // writes.
    id: 'placeholder-rows-from-events',
    matches: (p, c) => p === 'token_v2_processor' && c.startsWith('test_token_v1_'),
    explains: (d) =>
      (d.table === 'current_token_datas_v2' || d.table === 'current_collections_v2') &&
      d.field === '(row)' &&
      d.actual === 'extra',
  },
  {
    // A burned v2 token keeps its real former owners with amount 0 (so "who held it" survives);
    // the official processor replaces them by one row with owner "unknown".
    id: 'burned-owner-rows',
    matches: (p, c) => p === 'token_v2_processor' && c === 'mint_and_burn_event',
    explains: (d) =>
      d.table === 'current_token_ownerships_v2' &&
      d.field === '(row)' &&
      ((d.actual === 'missing' && d.key.endsWith('|unknown')) || d.actual === 'extra'),
  },
  {
    // Tradeport v2 token names / collection ids are read from the same transaction's write set even
    // for accept-bid and delist events; the official config leaves them null there.
    id: 'tradeport-names-from-write-set',
    matches: (_p, c) => c.startsWith('tradeport_v2/') || c.startsWith('tradeport_v2/sequential'),
    explains: (d) =>
      (d.field === 'token_name' || d.field === 'collection_id') && d.expected === null && d.actual !== null,
  },
  {
    // The official configs read `$.buyert` (a typo) for Tradeport v2 BuyEvent: buyer is always null.
    id: 'tradeport-buyer-typo',
    matches: (_p, c) => c === 'tradeport_v2/tradeport_v2_fill_listing_test',
    explains: (d) => d.table === 'nft_marketplace_activities' && d.field === 'buyer' && d.expected === null,
  },
  {
    // Every marketplace is decoded in every transaction; the official test configs map one
    // marketplace only, so cross-venue transactions show the other venue's rows as extra.
    id: 'all-marketplaces-decoded',
    matches: (_p, c) =>
      c === 'wapal/wapal_fill_listing_test' || c === 'tradeport_v2/tradeport_v2_place_listing_test',
    explains: (d) => d.field === '(row)' && d.actual === 'extra',
  },
  {
    // Listings are keyed by listing id (a token relisted has two listing rows, one closed);
    // the official table keeps one row per token.
    id: 'listings-by-listing-id',
    matches: (_p, c) =>
      c === 'tradeport_v2/sequential_two_tradeport_v2_accept_token_delist_events_same_token_data_id_test',
    explains: (d) => d.table === 'current_nft_marketplace_listings' && d.actual === 'extra',
  },
  {
    // Tradeport's collection bid event has no amount: we record one wanted token (each accept
    // fills one); the official leaves it null.
    id: 'tradeport-collection-bid-amount',
    matches: (_p, c) => c === 'tradeport_v2/tradeport_v2_place_collection_offer_test',
    explains: (d) => d.field === 'remaining_token_amount' && d.expected === null && d.actual === '1',
  },
];
