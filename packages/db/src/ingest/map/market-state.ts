import type { MarketActivityFact } from '@mdq/chain';
import type { CollectionOfferRow, ListingRow, TokenOfferRow } from '../types';
import { usToIso } from './time';

/*
 * Collapses a batch's market events (in chain order) into the state of each listing and offer
 * after the batch. Fields only the placing event knows (listing time, amount wanted) stay null when
 * the batch does not contain it, and the database keeps what it stored earlier.
 */

/** Marketplaces without listing ids (Tradeport v1) identify a listing by token and seller. */
export function listingKey(
  fact: Pick<MarketActivityFact, 'listingId' | 'tokenDataId' | 'propertyVersion' | 'seller'>,
): string | null {
  if (fact.listingId) return fact.listingId;
  if (!fact.tokenDataId || !fact.seller) return null;
  return `${fact.tokenDataId}:${fact.propertyVersion ?? '0'}:${fact.seller}`;
}

function offerKey(fact: MarketActivityFact): string | null {
  if (fact.offerId) return fact.offerId;
  const subject = fact.kind.includes('collection') ? fact.collectionId : fact.tokenDataId;
  if (!subject || !fact.buyer) return null;
  return `${subject}:${fact.buyer}`;
}

/** What an event says about the token, filled from the same order's earlier event where silent. */
function tokenFields(f: MarketActivityFact, previous: TokenFields | undefined): TokenFields {
  return {
    token_standard: f.tokenStandard ?? previous?.token_standard ?? null,
    property_version: f.propertyVersion ?? previous?.property_version ?? null,
    collection_id: f.collectionId ?? previous?.collection_id ?? null,
    collection_name: f.collectionName ?? previous?.collection_name ?? null,
    creator_address: f.creatorAddress ?? previous?.creator_address ?? null,
    token_name: f.tokenName ?? previous?.token_name ?? null,
    coin_type: f.coinType ?? previous?.coin_type ?? null,
  };
}

type TokenFields = Pick<
  ListingRow,
  | 'token_standard'
  | 'property_version'
  | 'collection_id'
  | 'collection_name'
  | 'creator_address'
  | 'token_name'
  | 'coin_type'
>;

export function collapseListings(facts: readonly MarketActivityFact[]): ListingRow[] {
  const rows = new Map<string, ListingRow>();
  for (const f of facts) {
    if (!f.kind.endsWith('_listing') || !f.tokenDataId) continue;
    const id = listingKey(f);
    if (!id) continue;
    const key = `${f.marketplace}|${id}`;
    const previous = rows.get(key);
    const placed = f.kind === 'place_listing';
    const status = placed ? 'active' : f.kind === 'fill_listing' ? 'sold' : 'cancelled';
    rows.set(key, {
      marketplace: f.marketplace,
      listing_id: id,
      contract_address: f.contractAddress,
      token_data_id: f.tokenDataId,
      ...tokenFields(f, previous),
      seller: f.seller ?? previous?.seller ?? null,
      buyer: f.kind === 'fill_listing' ? f.buyer : (previous?.buyer ?? null),
      price: placed ? f.price : (previous?.price ?? f.price),
      token_amount: f.tokenAmount,
      status,
      listed_at: placed ? usToIso(f.timestampUs) : (previous?.listed_at ?? null),
      listed_version: placed ? f.version : (previous?.listed_version ?? null),
      closed_at: placed ? null : usToIso(f.timestampUs),
      last_transaction_version: f.version,
    });
  }
  return [...rows.values()];
}

export function collapseTokenOffers(facts: readonly MarketActivityFact[]): TokenOfferRow[] {
  const rows = new Map<string, TokenOfferRow>();
  for (const f of facts) {
    if (!f.kind.endsWith('_token_offer') || !f.tokenDataId || !f.buyer) continue;
    const id = offerKey(f);
    if (!id) continue;
    const key = `${f.marketplace}|${id}`;
    const previous = rows.get(key);
    const placed = f.kind === 'place_token_offer';
    rows.set(key, {
      marketplace: f.marketplace,
      offer_id: id,
      contract_address: f.contractAddress,
      token_data_id: f.tokenDataId,
      ...tokenFields(f, previous),
      buyer: f.buyer,
      seller: f.kind === 'fill_token_offer' ? f.seller : (previous?.seller ?? null),
      price: f.price,
      token_amount: f.tokenAmount,
      status: placed ? 'active' : f.kind === 'fill_token_offer' ? 'filled' : 'cancelled',
      expiration_time: f.expirationTimeUs ? usToIso(f.expirationTimeUs) : (previous?.expiration_time ?? null),
      created_at: placed ? usToIso(f.timestampUs) : (previous?.created_at ?? null),
      created_version: placed ? f.version : (previous?.created_version ?? null),
      last_transaction_version: f.version,
    });
  }
  return [...rows.values()];
}

export function collapseCollectionOffers(facts: readonly MarketActivityFact[]): CollectionOfferRow[] {
  const rows = new Map<string, CollectionOfferRow>();
  for (const f of facts) {
    if (!f.kind.endsWith('_collection_offer') || !f.buyer) continue;
    const id = offerKey(f);
    if (!id) continue;
    const key = `${f.marketplace}|${id}`;
    const previous = rows.get(key);
    const placed = f.kind === 'place_collection_offer';
    const filled = f.kind === 'fill_collection_offer';
    // Without an absolute "remaining" from the chain, the writer recounts fills from the activity table.
    const remaining = placed ? (f.remainingTokenAmount ?? f.tokenAmount) : f.remainingTokenAmount;
    rows.set(key, {
      marketplace: f.marketplace,
      offer_id: id,
      contract_address: f.contractAddress,
      collection_id: f.collectionId ?? previous?.collection_id ?? null,
      collection_name: f.collectionName ?? previous?.collection_name ?? null,
      creator_address: f.creatorAddress ?? previous?.creator_address ?? null,
      buyer: f.buyer,
      price: f.price,
      token_amount: placed ? f.tokenAmount : (previous?.token_amount ?? null),
      remaining_amount: remaining ?? null,
      coin_type: f.coinType ?? previous?.coin_type ?? null,
      status: placed ? 'active' : filled ? (remaining === '0' ? 'filled' : 'active') : 'cancelled',
      expiration_time: f.expirationTimeUs ? usToIso(f.expirationTimeUs) : (previous?.expiration_time ?? null),
      created_at: placed ? usToIso(f.timestampUs) : (previous?.created_at ?? null),
      created_version: placed ? f.version : (previous?.created_version ?? null),
      last_transaction_version: f.version,
    });
  }
  return [...rows.values()];
}
