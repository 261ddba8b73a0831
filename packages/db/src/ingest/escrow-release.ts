import type { Db } from '../database';
import type { IngestBatch, OwnershipRow } from './types';

type ResolvedOwnership = OwnershipRow & { owner_address: string };

/**
 * A v1 listing on an escrow marketplace counts for its seller while listed (the decoder's
 * applyV1ListingEscrow), and its sale sets the seller's balance back to 0. A sale event that names
 * no seller (Bluemove's `BuyEvent`, `priceFromListing`) leaves that to the indexer: the seller is
 * the listing's, from a listing placed earlier in this batch or stored before it. Without a
 * balance row the transaction itself wrote for that seller, the seller holds 0 after the sale.
 * Runs before the ownerships and owner counts are written, so both see the release.
 */
export async function escrowReleases(
  db: Db,
  batch: IngestBatch,
  rows: readonly ResolvedOwnership[],
): Promise<ResolvedOwnership[]> {
  if (batch.salesAtListedPrice.length === 0) return [];
  const wanted = new Set(batch.salesAtListedPrice.map((s) => `${s.transaction_version}:${s.event_index}`));
  const sales = batch.marketActivities.filter(
    (a) =>
      wanted.has(`${a.transaction_version}:${a.event_index}`) &&
      a.token_standard === 'v1' &&
      a.token_data_id !== null &&
      a.listing_id !== null &&
      a.seller === null,
  );
  if (sales.length === 0) return [];
  const stored = await db
    .selectFrom('listings')
    .select(['marketplace', 'listing_id', 'seller'])
    .where(
      'listing_id',
      'in',
      sales.map((s) => s.listing_id as string),
    )
    .execute();
  const sellerOf = new Map(stored.map((l) => [`${l.marketplace}|${l.listing_id}`, l.seller]));
  const releases: ResolvedOwnership[] = [];
  for (const sale of sales) {
    const key = `${sale.marketplace}|${sale.listing_id}`;
    // The latest placement before the sale in this batch wins over what is stored.
    const placed = batch.marketActivities.filter(
      (a) =>
        a.kind === 'place_listing' &&
        `${a.marketplace}|${a.listing_id}` === key &&
        a.seller !== null &&
        (a.transaction_version < sale.transaction_version ||
          (a.transaction_version === sale.transaction_version && a.event_index < sale.event_index)),
    );
    const seller = placed.at(-1)?.seller ?? sellerOf.get(key) ?? null;
    if (seller === null) continue;
    const propertyVersion = sale.property_version ?? '0';
    const written = rows.some(
      (o) =>
        o.token_data_id === sale.token_data_id &&
        o.property_version === propertyVersion &&
        o.owner_address === seller &&
        o.last_transaction_version >= sale.transaction_version,
    );
    if (written) continue;
    releases.push({
      token_data_id: sale.token_data_id as string,
      property_version: propertyVersion,
      owner_address: seller,
      table_handle: null,
      collection_id: sale.collection_id,
      token_standard: 'v1',
      amount: '0',
      is_soulbound: null,
      last_transaction_version: sale.transaction_version,
    });
  }
  return releases;
}
