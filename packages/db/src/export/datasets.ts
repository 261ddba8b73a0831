import { ACTIVITY_EXPORT_COLUMNS, ACTIVITY_UNION } from '../queries/api/activity-row';
import type { CursorKind } from '../queries/api/pagination';
import { col, type ExportColumn } from './export-column';

interface ExportKey {
  expr: string;
  kind: CursorKind;
  /** The column that carries this key value in each row (resuming reads it from the last row). */
  column: string;
}

export interface ExportDataset {
  /** A relation named `x` with snake_case source columns. */
  from: string;
  columns: readonly ExportColumn[];
  /** Unique sort key, version first: rows stream in this order and a cursor resumes after one. */
  key: readonly ExportKey[];
  /** The chain version the version range filters on. */
  version: string;
  /** The collection id column the collection filter applies to. */
  collection: string;
  /** A predicate on `$wallet` (replaced by the wallet literal). */
  wallet: string;
}

const NATIVE = "'0x1::aptos_coin::AptosCoin'";

const FILLS = "('fill_listing', 'fill_token_offer', 'fill_collection_offer')";

const marketEventColumns = [
  col('version', 'x.transaction_version', 'int'),
  col('eventIndex', 'x.event_index', 'int'),
  col('kind', 'x.kind'),
  col('marketplace', 'x.marketplace'),
  col('tokenId', 'x.token_data_id'),
  col('tokenName', 'x.token_name'),
  col('tokenStandard', 'x.token_standard'),
  col('propertyVersion', 'x.property_version', 'u64'),
  col('collectionId', 'x.collection_id'),
  col('collection', 'x.collection_name'),
  col('creator', 'x.creator_address'),
  col('seller', 'x.seller'),
  col('buyer', 'x.buyer'),
  col('price', 'x.price', 'u64'),
  col('coinType', 'x.coin_type'),
  col('quantity', 'x.token_amount', 'u64'),
  col('commission', 'x.commission', 'u64'),
  col('royalties', 'x.royalties', 'u64'),
  col('listingId', 'x.listing_id'),
  col('offerId', 'x.offer_id'),
  col('timestamp', 'x.transaction_timestamp', 'time'),
  col('flags', "to_jsonb(coalesce(x.wash_flags, '{}'::text[]))", 'json'),
];

const eventKey: ExportKey[] = [
  { expr: 'x.transaction_version', kind: 'int', column: 'version' },
  { expr: 'x.event_index', kind: 'int', column: 'eventIndex' },
];

/**
 * The exportable datasets. Field names are the API's (ActivityEntry, ListingCard, Bid,
 * TokenSummary…); each row also carries the columns of its sort key so that the last row says
 * where to resume. Current-state datasets are keyed by the version of their last change, so a
 * resumed export also picks up rows that changed after the first part was taken.
 */
export const EXPORT_DATASETS = {
  sales: {
    from: `(SELECT * FROM marketplace_activities WHERE kind IN ${FILLS}) x`,
    columns: marketEventColumns,
    key: eventKey,
    version: 'x.transaction_version',
    collection: 'x.collection_id',
    wallet: '(x.seller = $wallet OR x.buyer = $wallet)',
  },
  activities: {
    // The API's activity union, column for column (queries/api/activity-row.ts).
    from: `(${ACTIVITY_UNION}) x`,
    columns: ACTIVITY_EXPORT_COLUMNS,
    key: [...eventKey, { expr: 'x.source', kind: 'text', column: 'source' }],
    version: 'x.transaction_version',
    collection: 'x.collection_id',
    wallet: '(x.from_address = $wallet OR x.to_address = $wallet OR x.seller = $wallet OR x.buyer = $wallet)',
  },
  listings: {
    from: 'listings x LEFT JOIN tokens t ON t.token_data_id = x.token_data_id',
    columns: [
      col('lastVersion', 'x.last_transaction_version', 'int'),
      col('marketplace', 'x.marketplace'),
      col('listingId', 'x.listing_id'),
      col('tokenId', 'x.token_data_id'),
      col('tokenName', 'x.token_name'),
      col('tokenStandard', 'x.token_standard'),
      col('propertyVersion', 'x.property_version', 'u64'),
      col('creator', 'x.creator_address'),
      col('collection', 'x.collection_name'),
      col('collectionId', 'x.collection_id'),
      col('tokenUri', 't.token_uri'),
      col('seller', 'x.seller'),
      col('buyer', 'x.buyer'),
      col('price', 'x.price', 'u64'),
      col('coinType', `coalesce(x.coin_type, ${NATIVE})`),
      col('quantity', 'x.token_amount', 'u64'),
      col('status', 'x.status'),
      col('listedAt', 'x.listed_at', 'time'),
      col('version', 'x.listed_version', 'int'),
      col('closedAt', 'x.closed_at', 'time'),
    ],
    key: [
      { expr: 'x.last_transaction_version', kind: 'int', column: 'lastVersion' },
      { expr: 'x.marketplace', kind: 'text', column: 'marketplace' },
      { expr: 'x.listing_id', kind: 'text', column: 'listingId' },
    ],
    version: 'x.last_transaction_version',
    collection: 'x.collection_id',
    wallet: '(x.seller = $wallet OR x.buyer = $wallet)',
  },
  offers: {
    from: `(SELECT 'token_offer' AS kind, o.offer_id, o.marketplace, o.buyer, o.seller, o.price, o.coin_type,
                   o.token_amount AS quantity, o.token_data_id, o.token_name, o.creator_address,
                   o.collection_name, o.collection_id, o.status, o.expiration_time, o.created_at,
                   o.created_version, o.last_transaction_version
              FROM token_offers o
            UNION ALL
            SELECT 'collection_offer', c.offer_id, c.marketplace, c.buyer, NULL, c.price, c.coin_type,
                   c.remaining_amount, NULL, NULL, c.creator_address, c.collection_name, c.collection_id,
                   c.status, c.expiration_time, c.created_at, c.created_version, c.last_transaction_version
              FROM collection_offers c) x`,
    columns: [
      col('lastVersion', 'x.last_transaction_version', 'int'),
      col('kind', 'x.kind'),
      col('marketplace', 'x.marketplace'),
      col('offerId', 'x.offer_id'),
      col('buyer', 'x.buyer'),
      col('seller', 'x.seller'),
      col('price', 'x.price', 'u64'),
      col('coinType', `coalesce(x.coin_type, ${NATIVE})`),
      col('quantity', 'x.quantity', 'u64'),
      col('tokenId', 'x.token_data_id'),
      col('tokenName', 'x.token_name'),
      col('creator', 'x.creator_address'),
      col('collection', 'x.collection_name'),
      col('collectionId', 'x.collection_id'),
      col('status', 'x.status'),
      col('expiresAt', 'x.expiration_time', 'time'),
      col('timestamp', 'x.created_at', 'time'),
      col('version', 'x.created_version', 'int'),
    ],
    key: [
      { expr: 'x.last_transaction_version', kind: 'int', column: 'lastVersion' },
      { expr: 'x.kind', kind: 'text', column: 'kind' },
      { expr: 'x.marketplace', kind: 'text', column: 'marketplace' },
      { expr: 'x.offer_id', kind: 'text', column: 'offerId' },
    ],
    version: 'x.last_transaction_version',
    collection: 'x.collection_id',
    wallet: '(x.buyer = $wallet OR x.seller = $wallet)',
  },
  tokens: {
    from: 'tokens x LEFT JOIN collections c ON c.collection_id = x.collection_id',
    columns: [
      col('lastVersion', 'x.last_transaction_version', 'int'),
      col('tokenId', 'x.token_data_id'),
      col('tokenName', 'x.token_name'),
      col('tokenStandard', 'x.token_standard'),
      col('creator', 'coalesce(x.creator_address, c.creator_address)'),
      col('collection', 'coalesce(x.collection_name, c.collection_name)'),
      col('collectionId', 'x.collection_id'),
      col('collectionUrl', 'c.uri'),
      col('tokenUri', 'x.token_uri'),
      col('description', 'x.description'),
      col('supply', 'x.supply', 'u64'),
      col('maximum', 'x.maximum', 'u64'),
      col('isBurned', 'x.is_burned', 'bool'),
      col('lootboxId', 'x.lootbox_id', 'int'),
      col('rarityTier', 'x.lootbox_tier'),
      col('mintedAt', 'x.minted_at', 'time'),
      col('version', 'coalesce(x.minted_version, x.last_transaction_version)', 'int'),
      col('properties', 'x.properties', 'json'),
    ],
    key: [
      { expr: 'x.last_transaction_version', kind: 'int', column: 'lastVersion' },
      { expr: 'x.token_data_id', kind: 'text', column: 'tokenId' },
    ],
    version: 'x.last_transaction_version',
    collection: 'x.collection_id',
    // Tokens the wallet holds now.
    wallet: `EXISTS (SELECT 1 FROM token_ownerships o
                      WHERE o.token_data_id = x.token_data_id AND o.owner_address = $wallet AND o.amount > 0)`,
  },
  ownerships: {
    from: 'token_ownerships x',
    columns: [
      col('lastVersion', 'x.last_transaction_version', 'int'),
      col('tokenId', 'x.token_data_id'),
      col('propertyVersion', 'x.property_version', 'u64'),
      col('owner', 'x.owner_address'),
      col('collectionId', 'x.collection_id'),
      col('tokenStandard', 'x.token_standard'),
      col('amount', 'x.amount', 'u64'),
      col('isSoulbound', 'x.is_soulbound', 'bool'),
    ],
    key: [
      { expr: 'x.last_transaction_version', kind: 'int', column: 'lastVersion' },
      { expr: 'x.token_data_id', kind: 'text', column: 'tokenId' },
      { expr: 'x.property_version', kind: 'u64', column: 'propertyVersion' },
      { expr: 'x.owner_address', kind: 'text', column: 'owner' },
    ],
    version: 'x.last_transaction_version',
    collection: 'x.collection_id',
    wallet: 'x.owner_address = $wallet',
  },
  collections: {
    from: 'collections x',
    columns: [
      col('lastVersion', 'x.last_transaction_version', 'int'),
      col('collectionId', 'x.collection_id'),
      col('collection', 'x.collection_name'),
      col('creator', 'x.creator_address'),
      col('tokenStandard', 'x.token_standard'),
      col('description', 'x.description'),
      col('collectionUrl', 'x.uri'),
      col('currentSupply', 'x.current_supply', 'u64'),
      col('maxSupply', 'x.max_supply', 'u64'),
      col('totalMinted', 'x.total_minted', 'u64'),
      col('ownerCount', 'x.owner_count', 'int'),
      col('lootboxId', 'x.lootbox_id', 'int'),
      col('createdAt', 'x.created_at', 'time'),
      col('version', 'x.created_version', 'int'),
    ],
    key: [
      { expr: 'x.last_transaction_version', kind: 'int', column: 'lastVersion' },
      { expr: 'x.collection_id', kind: 'text', column: 'collectionId' },
    ],
    version: 'x.last_transaction_version',
    collection: 'x.collection_id',
    wallet: 'x.creator_address = $wallet',
  },
} as const satisfies Record<string, ExportDataset>;

export type ExportDatasetName = keyof typeof EXPORT_DATASETS;
export const EXPORT_DATASET_NAMES = Object.keys(EXPORT_DATASETS) as ExportDatasetName[];
