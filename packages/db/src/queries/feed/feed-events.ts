/**
 * The live feed's event model: one shape for market, token and lootbox events, in chain order,
 * keyed by `<version>:<eventIndex>`. The SSE / WebSocket streams and the webhook deliveries all
 * build their events here, so that every transport says the same thing about the same event.
 */

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
] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

/** Stored kinds (marketplace_activities.kind, token_activities.kind) → feed kinds. */
export const MARKET_KINDS: Record<string, FeedKind> = {
  place_listing: 'listing_placed',
  cancel_listing: 'listing_cancelled',
  fill_listing: 'listing_sold',
  place_token_offer: 'token_offer_placed',
  cancel_token_offer: 'token_offer_cancelled',
  fill_token_offer: 'token_offer_filled',
  place_collection_offer: 'collection_offer_placed',
  cancel_collection_offer: 'collection_offer_cancelled',
  fill_collection_offer: 'collection_offer_filled',
};

// A token v1 move is a withdraw + deposit pair; the deposit (which names the receiver) is the
// feed's transfer, so that a move is one event as it is for v2 tokens.
export const TOKEN_KINDS: Record<string, FeedKind> = {
  mint: 'mint',
  transfer: 'transfer',
  deposit: 'transfer',
  burn: 'burn',
};

export interface FeedEvent {
  /** `<version>:<eventIndex>`: stable, unique, and ordered as the chain is. */
  id: string;
  kind: FeedKind;
  version: number;
  eventIndex: number;
  /** The block timestamp (ISO 8601). */
  timestamp: string;
  collectionId: string | null;
  tokenId: string | null;
  tokenStandard: string | null;
  propertyVersion: string | null;
  /** Market events. */
  seller: string | null;
  buyer: string | null;
  /** Token events (mint, transfer, burn) and lootbox openings (`to` = the owner). */
  from: string | null;
  to: string | null;
  price: string | null;
  coinType: string | null;
  quantity: string;
  marketplace: string | null;
  listingId: string | null;
  offerId: string | null;
  lootboxId: number | null;
  tier: string | null;
}

/** A position in the chain's event order: the feed resumes strictly after it. */
export interface FeedPosition {
  version: number;
  eventIndex: number;
}

export const FEED_START: FeedPosition = { version: -1, eventIndex: 0 };

export function feedEventId(position: FeedPosition): string {
  return `${position.version}:${position.eventIndex}`;
}

/** `123:4` → position; null for anything else (the caller answers 400 naming the parameter). */
export function parseFeedEventId(id: string): FeedPosition | null {
  const match = /^(\d{1,15}):(\d{1,9})$/.exec(id.trim());
  if (!match) return null;
  return { version: Number(match[1]), eventIndex: Number(match[2]) };
}

export function comparePositions(a: FeedPosition, b: FeedPosition): number {
  return a.version - b.version || a.eventIndex - b.eventIndex;
}

/** What a consumer asked for; an absent dimension matches everything, values within one are ORed. */
export interface FeedFilter {
  collectionIds?: ReadonlySet<string>;
  tokenIds?: ReadonlySet<string>;
  /** Matches the event's buyer, seller, from or to. */
  wallets?: ReadonlySet<string>;
  kinds?: ReadonlySet<FeedKind>;
  marketplaces?: ReadonlySet<string>;
}

const hit = (set: ReadonlySet<string> | undefined, value: string | null) =>
  set === undefined || (value !== null && set.has(value));

export function matchesFilter(event: FeedEvent, filter: FeedFilter): boolean {
  if (!hit(filter.collectionIds, event.collectionId)) return false;
  if (!hit(filter.tokenIds, event.tokenId)) return false;
  if (filter.kinds && !filter.kinds.has(event.kind)) return false;
  if (!hit(filter.marketplaces, event.marketplace)) return false;
  if (filter.wallets) {
    const w = filter.wallets;
    const any = [event.buyer, event.seller, event.from, event.to].some((a) => a !== null && w.has(a));
    if (!any) return false;
  }
  return true;
}
