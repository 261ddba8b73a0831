import { sql } from 'kysely';
import type { Db } from '../../database';
import { executePrepared } from '../../prepared';
import { type Bid, type BidRow, bestBidForTokenSql, toBid } from './bids';
import { collectionFloorSql } from './collections';
import { jsonRow, jsonRows } from './json-columns';
import { type ListingCard, type ListingCardRow, listingsOfTokenSql, toListingCard } from './listings';
import { recentSalesOfTokenSql, type Sale, type SaleRow, toSale } from './market-activity';
import { type TokenRecord, type TokenSummary, toTokenSummary } from './token-rows';
import { tokenByIdSql, tokenOwnersSql, tokenRaritySql } from './tokens';

/** Everything the listing-card page shows about one token. */
export interface ListingCardParts {
  token: TokenSummary;
  /** The cheapest active listing first, then the most recent closed ones. */
  listings: ListingCard[];
  owners: { owner: string; amount: string }[];
  floorPrice: string | null;
  bestBid: Bid | null;
  /** The most recent sales, newest first. */
  sales: Sale[];
  rarity: { rank: number; score: number } | null;
}

/**
 * One token's listing card in one statement (one round trip, one snapshot): the token, then its
 * listings, holders, collection floor, best live bid, recent sales and rarity as JSON columns of
 * the same row. Every part is the subquery its own list uses, and its columns read the same in
 * JSON (u64 numerics are selected as text). Null when there is no such token.
 */
export async function listingCardParts(db: Db, tokenId: string, now: Date): Promise<ListingCardParts | null> {
  // Planning this statement cost as much as running it: prepared, it is planned once per connection.
  const rows = await executePrepared(
    db,
    sql<{
      token: TokenRecord;
      listings: ListingCardRow[];
      owners: { owner: string; amount: string }[];
      floor_price: string | null;
      best_bid: BidRow | null;
      sales: SaleRow[];
      rarity: { rank: number; score: number } | null;
    }>`
    SELECT to_json(tk) AS token,
           ${jsonRows(listingsOfTokenSql(tokenId, sql`tk.collection_id`))} AS listings,
           ${jsonRows(tokenOwnersSql(tokenId, sql`tk.collection_id`))} AS owners,
           (${collectionFloorSql(sql`tk.collection_id`)}) AS floor_price,
           ${jsonRow(bestBidForTokenSql(tokenId, sql`tk.collection_id`, now))} AS best_bid,
           ${jsonRows(recentSalesOfTokenSql(tokenId, sql`tk.collection_id`, 20))} AS sales,
           ${jsonRow(tokenRaritySql(tokenId, sql`tk.collection_id`))} AS rarity
      FROM (${tokenByIdSql(tokenId)}) tk`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    token: toTokenSummary(row.token),
    listings: row.listings.map(toListingCard),
    owners: row.owners,
    floorPrice: row.floor_price,
    bestBid: row.best_bid ? toBid(row.best_bid) : null,
    sales: row.sales.map(toSale),
    rarity: row.rarity,
  };
}
