import type { FeedEvent } from '@mdq/contracts';

/**
 * The live feed's event model: one shape for market, token and lootbox events, in chain order,
 * keyed by `<version>:<eventIndex>`. The SSE / WebSocket streams and the webhook deliveries all
 * build their events here, so that every transport says the same thing about the same event.
 */

export { FEED_KINDS, type FeedKind } from '@mdq/contracts';

import type { FeedKind } from '@mdq/contracts';

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

/**
 * Event indexes above the chain's. A `floor_changed` event's index is FLOOR_EVENT_OFFSET + the
 * index of the listing event that moved the floor (the indexer writes it with the batch): after
 * every chain event of its version. A `ranking_changed` event's is RANKING_EVENT_OFFSET + a counter
 * per version (the worker writes it later, keyed at the checkpoint it saw, see
 * `appendRankingChanges`): after every indexer-written event of its version. Both stay below
 * 2^31 − 1, so ids and cursors stay `<version>:<index>` with a 32-bit index.
 */
export const FLOOR_EVENT_OFFSET = 1_000_000_000;
export const RANKING_EVENT_OFFSET = 2_000_000_000;

/**
 * The last position the indexer's batch at `version` can hold. A reader that has read every event
 * up to the checkpoint V stands here, not at the end of V: worker-written events of V may still
 * come, each after the last one read (they commit in key order).
 */
export const indexedEnd = (version: number): FeedPosition => ({
  version,
  eventIndex: RANKING_EVENT_OFFSET - 1,
});

/** A `ranking_changed` event's ranking: a collection moved within, into or out of the top N. */
export interface FeedRankingChange {
  /** `trending`, `daily_picks` or `top` (the rankings routes' lists). */
  name: string;
  /** The trailing window the ranking covers: `24h`, `7d` or `30d`. */
  window: string;
  /** Position after the run (1 = first); null when the collection is no longer ranked at all. */
  rank: number | null;
  /** Position before the run; null when the collection was not ranked. */
  previousRank: number | null;
  /** The ranking's score after the run (null when it left the ranking). */
  score: number | null;
  /** How deep the feed watches: rank or previousRank (or both) is at most this. */
  top: number;
  /** When the worker computed the ranking (the window's end, ISO 8601). */
  computedAt: string;
}

export type { FeedEvent };

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
  // Ten digits for the index: floor and ranking changes sit above 10^9 (FLOOR_EVENT_OFFSET).
  const match = /^(\d{1,15}):(\d{1,10})$/.exec(id.trim());
  if (!match) return null;
  const eventIndex = Number(match[2]);
  if (eventIndex > 2 ** 31 - 1) return null;
  return { version: Number(match[1]), eventIndex };
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
