import type { Db } from '@mdq/db';
import { recountOwners } from '@mdq/db/ingest';

const APT = '0x1::aptos_coin::AptosCoin';
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** Long-form address from a small number, so fixtures read as "collection 1", "buyer 7". */
export function addr(n: number): string {
  return `0x${n.toString(16).padStart(64, '0')}`;
}

let version = 1_000;

export async function insertCollection(
  db: Db,
  id: string,
  extra: { uri?: string | null } = {},
): Promise<void> {
  await db
    .insertInto('collections')
    .values({
      collection_id: id,
      token_standard: 'v2',
      creator_address: addr(9_999),
      collection_name: `c-${id.slice(-4)}`,
      uri: extra.uri ?? null,
      created_at: new Date('2026-01-01T00:00:00Z'),
      created_version: 1,
      last_transaction_version: 1,
    })
    .execute();
}

export async function insertToken(db: Db, id: string, collectionId: string, burned = false): Promise<void> {
  await db
    .insertInto('tokens')
    .values({
      token_data_id: id,
      token_standard: 'v2',
      collection_id: collectionId,
      token_name: `t-${id.slice(-4)}`,
      is_burned: burned,
      last_transaction_version: 1,
    })
    .execute();
}

export async function insertTraits(
  db: Db,
  tokenId: string,
  collectionId: string,
  traits: Record<string, string>,
) {
  const rows = Object.entries(traits).map(([trait_type, value]) => ({
    token_data_id: tokenId,
    collection_id: collectionId,
    trait_type,
    value,
  }));
  if (rows.length > 0) await db.insertInto('token_attributes').values(rows).execute();
}

export async function insertSale(
  db: Db,
  sale: { collectionId: string; price: string; buyer: string; at: Date; coinType?: string | null },
): Promise<void> {
  version += 1;
  await db
    .insertInto('marketplace_activities')
    .values({
      transaction_version: version,
      event_index: 0,
      kind: 'fill_listing',
      marketplace: 'mdq',
      contract_address: addr(0x6d71),
      raw_event_type: 'ListingFilled',
      collection_id: sale.collectionId,
      price: sale.price,
      token_amount: '1',
      coin_type: sale.coinType === undefined ? APT : sale.coinType,
      buyer: sale.buyer,
      seller: addr(1),
      transaction_timestamp: sale.at,
    })
    .execute();
}

/**
 * A listing row and the marketplace events the indexer writes with it: its placement and, for a
 * cancelled one, the cancellation (floors at a past instant are rebuilt from these events). A sold
 * listing's fill is a sale: tests that want its volume insert it with insertSale.
 */
export async function insertListing(
  db: Db,
  l: {
    collectionId: string;
    tokenId: string;
    price: string;
    status: 'active' | 'sold' | 'cancelled';
    listedAt: Date;
    closedAt?: Date | null;
    coinType?: string | null;
  },
): Promise<void> {
  version += 1;
  const listingId = `l-${version}`;
  const coinType = l.coinType === undefined ? APT : l.coinType;
  await db
    .insertInto('listings')
    .values({
      marketplace: 'mdq',
      listing_id: listingId,
      contract_address: addr(0x6d71),
      token_data_id: l.tokenId,
      collection_id: l.collectionId,
      price: l.price,
      status: l.status,
      coin_type: coinType,
      listed_at: l.listedAt,
      closed_at: l.closedAt ?? null,
      last_transaction_version: version,
    })
    .execute();
  const event = (kind: 'place_listing' | 'cancel_listing', at: Date) => ({
    transaction_version: version,
    event_index: kind === 'place_listing' ? 0 : 1,
    kind,
    marketplace: 'mdq',
    contract_address: addr(0x6d71),
    raw_event_type: kind === 'place_listing' ? 'ListingPlaced' : 'ListingCancelled',
    collection_id: l.collectionId,
    token_data_id: l.tokenId,
    listing_id: listingId,
    price: l.price,
    token_amount: '1',
    coin_type: coinType,
    seller: addr(1),
    transaction_timestamp: at,
  });
  const events = [event('place_listing', l.listedAt)];
  if (l.status === 'cancelled' && l.closedAt) events.push(event('cancel_listing', l.closedAt));
  await db.insertInto('marketplace_activities').values(events).execute();
}

export async function insertOwnership(
  db: Db,
  tokenId: string,
  collectionId: string,
  owner: string,
): Promise<void> {
  await db
    .insertInto('token_ownerships')
    .values({
      token_data_id: tokenId,
      owner_address: owner,
      collection_id: collectionId,
      token_standard: 'v2',
      amount: '1',
      last_transaction_version: 1,
    })
    .execute();
  // The indexer keeps `owner_count` in the same transaction as the ownership (holder counts read
  // it); a row written here directly gets the count the indexer would have left.
  await recountOwners(db, [collectionId]);
}

export async function insertLootbox(
  db: Db,
  l: { id: number; collectionId: string; createdAt: Date; mintStart: Date },
): Promise<void> {
  await db
    .insertInto('lootboxes')
    .values({
      lootbox_id: l.id,
      creator_address: addr(8_888),
      collection_name: `box-${l.id}`,
      collection_id: l.collectionId,
      price: '100',
      coin_type: APT,
      max_supply: '10',
      mint_start: l.mintStart,
      created_at: l.createdAt,
      created_version: l.id,
      last_transaction_version: l.id,
    })
    .execute();
}
