import type { DecodedTransaction, MarketActivityFact } from '../../src/index';
import { readRows } from './expected';
import { isoFromMicros, MismatchCollector } from './mismatch';

/**
 * nft_aggregator conformance: activities row by row, and the three "current" tables rebuilt from
 * our facts with the official keys (listings by token, token offers by token + buyer, collection
 * offers by offer id; a newer version wins), to show the facts carry everything those rows need.
 */
export function compareMarket(root: string, dir: string, decoded: DecodedTransaction[]): MismatchCollector {
  const test = dir.split('/').slice(-2).join('/');
  const marketplace = dir.split('/').at(-2) ?? '';
  const collector = new MismatchCollector(test);
  const facts = decoded
    .flatMap((tx) => tx.marketActivities)
    .filter((fact) => fact.marketplace === marketplace);

  const expectedActivities = readRows(root, dir, 'nft_marketplace_activities');
  const byKey = new Map(facts.map((fact) => [`${fact.version}#${fact.eventIndex}`, fact]));
  for (const row of expectedActivities) {
    const key = `${row['txn_version']}#${row['index']}`;
    const fact = byKey.get(key);
    byKey.delete(key);
    if (!fact) {
      collector.row('nft_marketplace_activities', key, 'missing-row', row['standard_event_type']);
      continue;
    }
    const f = (field: string, expected: unknown, actual: unknown): void =>
      collector.field('nft_marketplace_activities', key, field, expected, actual, fact.kind);
    f('standard_event_type', row['standard_event_type'], fact.kind);
    f('raw_event_type', row['raw_event_type'], fact.rawEventType);
    f('marketplace', row['marketplace'], fact.marketplace);
    f('contract_address', row['contract_address'], fact.contractAddress);
    f('token_data_id', row['token_data_id'], fact.tokenDataId);
    f('collection_id', row['collection_id'], fact.collectionId);
    f('collection_name', row['collection_name'], fact.collectionName);
    f('creator_address', row['creator_address'], fact.creatorAddress);
    f('token_name', row['token_name'], fact.tokenName);
    f('price', row['price'], fact.price);
    f('token_amount', row['token_amount'], fact.tokenAmount);
    f('buyer', row['buyer'], fact.buyer);
    f('seller', row['seller'], fact.seller);
    f('listing_id', row['listing_id'], fact.listingId);
    f('offer_id', row['offer_id'], fact.offerId);
    f('expiration_time', row['expiration_time'], isoFromMicros(fact.expirationTimeUs));
  }
  for (const key of byKey.keys()) collector.row('nft_marketplace_activities', key, 'extra-row', null);

  compareCurrent(collector, root, dir, 'current_nft_marketplace_listings', listingRows(facts), (row) =>
    String(row['token_data_id']),
  );
  compareCurrent(
    collector,
    root,
    dir,
    'current_nft_marketplace_token_offers',
    tokenOfferRows(facts),
    (row) => `${row['token_data_id']}/${row['buyer']}`,
  );
  compareCurrent(
    collector,
    root,
    dir,
    'current_nft_marketplace_collection_offers',
    collectionOfferRows(facts),
    (row) => String(row['collection_offer_id']),
  );
  return collector;
}

type Current = Record<string, unknown>;

function compareCurrent(
  collector: MismatchCollector,
  root: string,
  dir: string,
  table: string,
  ours: Map<string, Current>,
  keyOf: (row: Current) => string,
): void {
  for (const row of readRows(root, dir, table)) {
    const key = keyOf(normalizeKeyFields(row));
    const mine = ours.get(key);
    ours.delete(key);
    if (!mine) {
      collector.row(table, key, 'missing-row', row['standard_event_type']);
      continue;
    }
    for (const [field, value] of Object.entries(mine)) {
      collector.field(table, key, field, row[field], value, String(mine['standard_event_type']));
    }
  }
  for (const key of ours.keys()) collector.row(table, key, 'extra-row', null);
}

function normalizeKeyFields(row: Current): Current {
  const copy: Current = { ...row };
  for (const field of ['token_data_id', 'buyer', 'collection_offer_id']) {
    const value = copy[field];
    if (typeof value === 'string') copy[field] = `0x${value.slice(2).padStart(64, '0')}`;
  }
  return copy;
}

/** Upsert where a newer (version, event index) wins and null fields keep the previous value. */
function upsert(map: Map<string, Current>, key: string, fact: MarketActivityFact, row: Current): void {
  const previous = map.get(key);
  const order = (r: Current | undefined): number => (r ? Number(r['last_transaction_version']) : -1);
  if (previous && order(previous) > fact.version) return;
  const merged: Current = { ...previous };
  for (const [field, value] of Object.entries(row))
    if (value !== null || !(field in merged)) merged[field] = value;
  map.set(key, merged);
}

function listingRows(facts: MarketActivityFact[]): Map<string, Current> {
  const rows = new Map<string, Current>();
  for (const fact of facts) {
    if (!fact.kind.endsWith('_listing') || fact.tokenDataId === null) continue;
    upsert(rows, fact.tokenDataId, fact, {
      token_data_id: fact.tokenDataId,
      listing_id: fact.listingId,
      collection_id: fact.collectionId,
      seller: fact.seller,
      price: fact.price,
      token_name: fact.tokenName,
      is_deleted: fact.kind !== 'place_listing',
      marketplace: fact.marketplace,
      contract_address: fact.contractAddress,
      last_transaction_version: fact.version,
      standard_event_type: fact.kind,
    });
  }
  return rows;
}

function tokenOfferRows(facts: MarketActivityFact[]): Map<string, Current> {
  const rows = new Map<string, Current>();
  for (const fact of facts) {
    if (!fact.kind.endsWith('_token_offer') || fact.tokenDataId === null) continue;
    upsert(rows, `${fact.tokenDataId}/${fact.buyer}`, fact, {
      token_data_id: fact.tokenDataId,
      offer_id: fact.offerId,
      collection_id: fact.collectionId,
      buyer: fact.buyer,
      price: fact.price,
      token_name: fact.tokenName,
      is_deleted: fact.kind !== 'place_token_offer',
      marketplace: fact.marketplace,
      contract_address: fact.contractAddress,
      last_transaction_version: fact.version,
      standard_event_type: fact.kind,
      expiration_time: isoFromMicros(fact.expirationTimeUs),
    });
  }
  return rows;
}

function collectionOfferRows(facts: MarketActivityFact[]): Map<string, Current> {
  const rows = new Map<string, Current>();
  for (const fact of facts) {
    if (!fact.kind.endsWith('_collection_offer') || fact.offerId === null) continue;
    upsert(rows, fact.offerId, fact, {
      collection_offer_id: fact.offerId,
      collection_id: fact.collectionId,
      buyer: fact.buyer,
      price: fact.price,
      remaining_token_amount: fact.remainingTokenAmount,
      is_deleted: fact.kind !== 'place_collection_offer',
      marketplace: fact.marketplace,
      contract_address: fact.contractAddress,
      last_transaction_version: fact.version,
      standard_event_type: fact.kind,
      token_data_id: fact.tokenDataId,
      expiration_time: isoFromMicros(fact.expirationTimeUs),
    });
  }
  return rows;
}
