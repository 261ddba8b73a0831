import type { DecodedTransaction } from '@mdq/chain';
import { emptyBatch, type IngestBatch } from '../types';
import { collapseCollectionOffers, collapseListings, collapseTokenOffers } from './market-state';
import { placeholders } from './placeholders';
import { secsToIso, usToIso } from './time';
import { dropRepeatedTokenRows } from './token-changes';
import { releaseReplacedHolders } from './v2-holders';

export interface FailedDecode {
  version: number;
  reason: string;
  payload: unknown;
}

/** Turns the decoded facts of consecutive transactions into the rows of one database batch. */
export function toBatch(
  checkpointName: string,
  lastVersion: number,
  decoded: readonly DecodedTransaction[],
  failed: readonly FailedDecode[] = [],
): IngestBatch {
  const batch = emptyBatch(checkpointName, lastVersion);
  const last = decoded.at(-1);
  if (last) batch.checkpoint.lastTimestamp = usToIso(last.timestampUs);

  for (const tx of decoded) {
    const at = usToIso(tx.timestampUs);
    const mints = new Map<string, number>();
    for (const a of tx.tokenActivities) {
      if (a.kind === 'mint' && !mints.has(a.tokenDataId)) mints.set(a.tokenDataId, a.version);
      batch.tokenActivities.push({
        transaction_version: a.version,
        event_index: a.eventIndex,
        kind: a.kind,
        event_type: a.eventType,
        token_data_id: a.tokenDataId,
        token_standard: a.tokenStandard,
        collection_id: a.collectionId,
        property_version: a.propertyVersion,
        from_address: a.fromAddress,
        to_address: a.toAddress,
        amount: a.amount,
        transaction_timestamp: usToIso(a.timestampUs),
      });
    }
    for (const c of tx.collections) {
      if (c.collectionName === '' && c.creatorAddress === '') {
        batch.collectionSupplies.push({
          collection_id: c.collectionId,
          current_supply: c.currentSupply,
          max_supply: c.maxSupply,
          total_minted: c.totalMinted,
          last_transaction_version: c.version,
        });
        continue;
      }
      batch.collections.push({
        collection_id: c.collectionId,
        token_standard: c.tokenStandard,
        creator_address: c.creatorAddress,
        collection_name: c.collectionName,
        description: c.description,
        uri: c.uri,
        current_supply: c.currentSupply,
        max_supply: c.maxSupply,
        total_minted: c.totalMinted,
        created_at: at,
        created_version: c.version,
        last_transaction_version: c.version,
      });
    }
    for (const t of tx.tokens) {
      const minted = mints.get(t.tokenDataId);
      batch.tokens.push({
        token_data_id: t.tokenDataId,
        token_standard: t.tokenStandard,
        collection_id: t.collectionId,
        creator_address: t.creatorAddress,
        collection_name: t.collectionName,
        token_name: t.tokenName,
        description: t.description,
        token_uri: t.tokenUri,
        properties: t.properties,
        supply: t.supply,
        maximum: t.maximum,
        largest_property_version: t.largestPropertyVersion,
        is_soulbound: t.isSoulbound,
        minted_at: minted === undefined ? null : at,
        minted_version: minted ?? null,
        last_transaction_version: t.version,
      });
    }
    for (const o of tx.ownerships) {
      batch.ownerships.push({
        token_data_id: o.tokenDataId,
        property_version: o.propertyVersion,
        owner_address: o.owner,
        table_handle: o.tableHandle,
        collection_id: o.collectionId,
        token_standard: o.tokenStandard,
        amount: o.amount,
        is_soulbound: o.isSoulbound,
        last_transaction_version: o.version,
      });
    }
    for (const h of tx.tableHandles) {
      batch.tableHandles.push({
        handle: h.handle,
        owner_address: h.owner,
        kind: h.kind,
        last_transaction_version: h.version,
      });
    }
    for (const p of tx.pendingClaims) {
      batch.pendingClaims.push({
        token_data_id: p.tokenDataId,
        property_version: p.propertyVersion,
        from_address: p.fromAddress,
        to_address: p.toAddress,
        collection_id: p.collectionId,
        amount: p.amount,
        last_transaction_version: p.version,
      });
    }
    for (const m of tx.marketActivities) {
      batch.marketActivities.push({
        transaction_version: m.version,
        event_index: m.eventIndex,
        kind: m.kind,
        marketplace: m.marketplace,
        contract_address: m.contractAddress,
        raw_event_type: m.rawEventType,
        token_data_id: m.tokenDataId,
        token_standard: m.tokenStandard,
        property_version: m.propertyVersion,
        collection_id: m.collectionId,
        collection_name: m.collectionName,
        creator_address: m.creatorAddress,
        token_name: m.tokenName,
        price: m.price,
        token_amount: m.tokenAmount,
        coin_type: m.coinType,
        seller: m.seller,
        buyer: m.buyer,
        listing_id: m.listingId,
        offer_id: m.offerId,
        commission: m.commission,
        royalties: m.royalties,
        transaction_timestamp: usToIso(m.timestampUs),
        seller_funded: m.sellerFunded === true,
      });
      if (m.priceFromListing) {
        batch.salesAtListedPrice.push({ transaction_version: m.version, event_index: m.eventIndex });
      }
    }
    for (const token of tx.burnedTokens) {
      batch.burnedTokens.push({ token_data_id: token, last_transaction_version: tx.version });
    }
    for (const token of tx.v1BurnedUnlessHeld ?? []) {
      batch.v1BurnedUnlessHeld.push({ token_data_id: token, last_transaction_version: tx.version });
    }
    addLootboxRows(batch, tx);
  }

  batch.tokens = dropRepeatedTokenRows(batch.tokens);
  batch.ownerships = releaseReplacedHolders(batch.ownerships);
  const named = placeholders(decoded);
  batch.tokenPlaceholders = named.tokens;
  batch.collectionPlaceholders = named.collections;
  const market = decoded.flatMap((tx) => tx.marketActivities);
  batch.listings = collapseListings(market);
  batch.tokenOffers = collapseTokenOffers(market);
  batch.collectionOffers = collapseCollectionOffers(market);
  batch.failed = failed.map((f) => ({
    transaction_version: f.version,
    reason: f.reason,
    payload: f.payload,
  }));
  return batch;
}

function addLootboxRows(batch: IngestBatch, tx: DecodedTransaction): void {
  for (const l of tx.lootbox) {
    const id = Number(l.lootboxId);
    const at = usToIso(l.timestampUs);
    switch (l.kind) {
      case 'created':
        batch.lootboxes.push({
          lootbox_id: id,
          creator_address: l.creator,
          collection_name: l.collectionName,
          collection_id: l.collectionId,
          price: l.price,
          coin_type: l.coinType,
          max_supply: l.maxSupply,
          mint_start: secsToIso(l.mintStartSecs),
          mint_end: l.mintEndSecs === '0' ? null : secsToIso(l.mintEndSecs),
          created_at: at,
          created_version: l.version,
          last_transaction_version: l.version,
        });
        l.tiers.forEach((tier, position) => {
          batch.lootboxTiers.push({
            lootbox_id: id,
            tier_name: tier.name,
            position,
            weight: tier.weight,
            max_supply: tier.maxSupply,
          });
        });
        break;
      case 'updated':
        batch.lootboxUpdates.push({
          lootbox_id: id,
          price: l.price,
          mint_start: secsToIso(l.mintStartSecs),
          mint_end: l.mintEndSecs === '0' ? null : secsToIso(l.mintEndSecs),
          paused: l.paused,
          last_transaction_version: l.version,
        });
        break;
      case 'purchased':
        batch.lootboxPurchases.push({
          transaction_version: l.version,
          event_index: l.eventIndex,
          lootbox_id: id,
          buyer: l.buyer,
          quantity: l.quantity,
          amount_paid: l.amountPaid,
          coin_type: l.coinType,
          transaction_timestamp: at,
        });
        break;
      case 'opened':
        batch.lootboxReveals.push({
          transaction_version: l.version,
          event_index: l.eventIndex,
          lootbox_id: id,
          owner_address: l.owner,
          token_data_id: l.tokenDataId,
          tier: l.tier,
          transaction_timestamp: at,
        });
        break;
    }
  }
}
