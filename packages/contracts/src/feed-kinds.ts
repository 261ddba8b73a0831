/** Every kind the feed can carry, with the API's names. */
export const FEED_KINDS = [
  'listing_placed',
  'listing_cancelled',
  'listing_sold',
  'token_offer_placed',
  'token_offer_cancelled',
  'token_offer_filled',
  'collection_offer_placed',
  'collection_offer_cancelled',
  'collection_offer_filled',
  'mint',
  'transfer',
  'burn',
  'lootbox_purchased',
  'lootbox_opened',
  'floor_changed',
  'ranking_changed',
] as const;
export type FeedKind = (typeof FEED_KINDS)[number];
