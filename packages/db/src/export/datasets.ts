import type { ExportDatasetName } from '@mdq/contracts';
import {
  ACTIVITY_EXPORT_COLUMNS,
  ACTIVITY_UNION,
  type ActivityEntry,
  activitySelect,
} from '../queries/api/activity-row';
import type { Bid } from '../queries/api/bids';
import type { CollectionFacts } from '../queries/api/collections';
import type { ListingCard } from '../queries/api/listings';
import type { CursorKind } from '../queries/api/pagination';
import { tokenPropertyVersion } from '../queries/api/property-version';
import type { TokenSummary } from '../queries/api/token-rows';
import type { TokenBalance } from '../queries/api/tokens';
import { NATIVE_COIN, SALE_KINDS_LIST } from '../queries/market-rules';
import { apiColumns, type ColumnSpec, type ExportColumn } from './export-column';

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

const NATIVE = `'${NATIVE_COIN}'`;

/** A field of the activity union as its own export writes it (queries/api/activity-row.ts). */
function activityField(name: keyof ActivityEntry): ColumnSpec {
  const column = ACTIVITY_EXPORT_COLUMNS.find((c) => c.name === name);
  if (!column) throw new Error(`no activity column '${name}'`);
  return [column.expr, column.type];
}

/**
 * A sale is a market event of the activity union (its fields read from the one description of
 * the union) with the columns only market events have.
 */
const SALES_FROM = `(SELECT ${activitySelect('market')}, m.token_name, m.collection_name, m.creator_address,
                            m.commission, m.royalties, m.listing_id, m.offer_id
                       FROM marketplace_activities m WHERE m.kind IN ${SALE_KINDS_LIST}) x`;

const saleColumns = apiColumns<
  Omit<ActivityEntry, 'source' | 'from' | 'to'>,
  'tokenName' | 'collection' | 'creator' | 'commission' | 'royalties' | 'listingId' | 'offerId'
>({
  version: activityField('version'),
  eventIndex: activityField('eventIndex'),
  kind: activityField('kind'),
  marketplace: activityField('marketplace'),
  tokenId: activityField('tokenId'),
  tokenName: ['x.token_name'],
  tokenStandard: activityField('tokenStandard'),
  propertyVersion: activityField('propertyVersion'),
  collectionId: activityField('collectionId'),
  collection: ['x.collection_name'],
  creator: ['x.creator_address'],
  seller: activityField('seller'),
  buyer: activityField('buyer'),
  price: activityField('price'),
  coinType: activityField('coinType'),
  quantity: activityField('quantity'),
  commission: ['x.commission', 'u64'],
  royalties: ['x.royalties', 'u64'],
  listingId: ['x.listing_id'],
  offerId: ['x.offer_id'],
  timestamp: activityField('timestamp'),
  flags: activityField('flags'),
});

const eventKey: ExportKey[] = [
  { expr: 'x.transaction_version', kind: 'int', column: 'version' },
  { expr: 'x.event_index', kind: 'int', column: 'eventIndex' },
];

/**
 * The exportable datasets. Field names are the API's, checked against its row types
 * (ActivityEntry, ListingCard, Bid, TokenSummary…: apiColumns); each row also carries the columns
 * of its sort key so that the last row says where to resume. Current-state datasets are keyed by the version of their last change, so a
 * resumed export also picks up rows that changed after the first part was taken.
 */
export const EXPORT_DATASETS = {
  sales: {
    from: SALES_FROM,
    columns: saleColumns,
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
    columns: apiColumns<ListingCard, 'lastVersion' | 'buyer' | 'closedAt'>({
      lastVersion: ['x.last_transaction_version', 'int'],
      marketplace: ['x.marketplace'],
      listingId: ['x.listing_id'],
      tokenId: ['x.token_data_id'],
      tokenName: ['x.token_name'],
      tokenStandard: ['x.token_standard'],
      propertyVersion: [tokenPropertyVersion('x'), 'u64'],
      creator: ['x.creator_address'],
      collection: ['x.collection_name'],
      collectionId: ['x.collection_id'],
      tokenUri: ['t.token_uri'],
      seller: ['x.seller'],
      buyer: ['x.buyer'],
      price: ['x.price', 'u64'],
      coinType: [`coalesce(x.coin_type, ${NATIVE})`],
      quantity: ['x.token_amount', 'u64'],
      status: ['x.status'],
      listedAt: ['x.listed_at', 'time'],
      version: ['x.listed_version', 'int'],
      closedAt: ['x.closed_at', 'time'],
    }),
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
    columns: apiColumns<Bid, 'lastVersion' | 'seller'>({
      lastVersion: ['x.last_transaction_version', 'int'],
      kind: ['x.kind'],
      marketplace: ['x.marketplace'],
      offerId: ['x.offer_id'],
      buyer: ['x.buyer'],
      seller: ['x.seller'],
      price: ['x.price', 'u64'],
      coinType: [`coalesce(x.coin_type, ${NATIVE})`],
      quantity: ['x.quantity', 'u64'],
      tokenId: ['x.token_data_id'],
      tokenName: ['x.token_name'],
      creator: ['x.creator_address'],
      collection: ['x.collection_name'],
      collectionId: ['x.collection_id'],
      status: ['x.status'],
      expiresAt: ['x.expiration_time', 'time'],
      timestamp: ['x.created_at', 'time'],
      version: ['x.created_version', 'int'],
    }),
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
    from: `tokens x LEFT JOIN collections c ON c.collection_id = x.collection_id
           LEFT JOIN metadata_documents d ON d.kind = 'token' AND d.subject_id = x.token_data_id`,
    columns: apiColumns<TokenSummary, 'lastVersion' | 'properties'>({
      lastVersion: ['x.last_transaction_version', 'int'],
      tokenId: ['x.token_data_id'],
      tokenName: ['x.token_name'],
      tokenStandard: ['x.token_standard'],
      creator: ['coalesce(x.creator_address, c.creator_address)'],
      collection: ['coalesce(x.collection_name, c.collection_name)'],
      collectionId: ['x.collection_id'],
      collectionUrl: ['c.uri'],
      tokenUri: ['x.token_uri'],
      image: ['d.image'],
      animationUrl: ['d.animation_url'],
      metadata: [
        `json_build_object('status', coalesce(d.status, 'pending'), 'error', d.error,
           'fetchedAt', to_char(d.fetched_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'valid', (d.report ->> 'valid')::boolean)`,
        'json',
      ],
      description: ['x.description'],
      supply: ['x.supply', 'u64'],
      maximum: ['x.maximum', 'u64'],
      isBurned: ['x.is_burned', 'bool'],
      lootboxId: ['x.lootbox_id', 'int'],
      rarityTier: ['x.lootbox_tier'],
      mintedAt: ['x.minted_at', 'time'],
      version: ['coalesce(x.minted_version, x.last_transaction_version)', 'int'],
      properties: ['x.properties', 'json'],
    }),
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
    columns: apiColumns<
      Pick<
        TokenBalance,
        'tokenId' | 'propertyVersion' | 'owner' | 'collectionId' | 'tokenStandard' | 'amount' | 'isSoulbound'
      >,
      'lastVersion'
    >({
      lastVersion: ['x.last_transaction_version', 'int'],
      tokenId: ['x.token_data_id'],
      propertyVersion: ['x.property_version', 'u64'],
      owner: ['x.owner_address'],
      collectionId: ['x.collection_id'],
      tokenStandard: ['x.token_standard'],
      amount: ['x.amount', 'u64'],
      isSoulbound: ['x.is_soulbound', 'bool'],
    }),
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
    columns: apiColumns<
      Pick<
        CollectionFacts,
        | 'collectionId'
        | 'collection'
        | 'creator'
        | 'tokenStandard'
        | 'description'
        | 'collectionUrl'
        | 'currentSupply'
        | 'maxSupply'
        | 'totalMinted'
        | 'lootboxId'
        | 'createdAt'
        | 'version'
      >,
      'lastVersion' | 'ownerCount'
    >({
      lastVersion: ['x.last_transaction_version', 'int'],
      collectionId: ['x.collection_id'],
      collection: ['x.collection_name'],
      creator: ['x.creator_address'],
      tokenStandard: ['x.token_standard'],
      description: ['x.description'],
      collectionUrl: ['x.uri'],
      currentSupply: ['x.current_supply', 'u64'],
      maxSupply: ['x.max_supply', 'u64'],
      totalMinted: ['x.total_minted', 'u64'],
      ownerCount: ['x.owner_count', 'int'],
      lootboxId: ['x.lootbox_id', 'int'],
      createdAt: ['x.created_at', 'time'],
      version: ['x.created_version', 'int'],
    }),
    key: [
      { expr: 'x.last_transaction_version', kind: 'int', column: 'lastVersion' },
      { expr: 'x.collection_id', kind: 'text', column: 'collectionId' },
    ],
    version: 'x.last_transaction_version',
    collection: 'x.collection_id',
    wallet: 'x.creator_address = $wallet',
  },
} as const satisfies Record<ExportDatasetName, ExportDataset>;

export { EXPORT_DATASET_NAMES, type ExportDatasetName } from '@mdq/contracts';
