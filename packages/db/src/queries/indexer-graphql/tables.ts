import { type RawBuilder, sql } from 'kysely';
import { feedCheckpointRow } from '../checkpoints';

/**
 * The NFT tables of the Aptos Indexer API (the official processors' Hasura schema), each described
 * once over mdq's own tables: its columns with their GraphQL scalar and the SQL that reads them,
 * and its object relationships. The GraphQL schema (apps/api), the where / order_by inputs and the
 * SQL compiler (compile.ts) are all generated from these descriptions.
 */

/** The Hasura scalars the official schema uses for these tables. */
export type IndexerScalar = 'String' | 'Boolean' | 'Int' | 'bigint' | 'numeric' | 'timestamp' | 'jsonb';

/** A row alias in a compiled statement (internal, never user text). */
export type Alias = RawBuilder<unknown>;

/**
 * A table a statement reads for a row (what a cached answer is keyed by, reads.ts): `row` is the
 * described row's own table, `token` the row's token's rows (by its token_data_id), `collection`
 * the row's collection's row (by its collection_id), `any` rows unrelated to the row (read by
 * other keys: a wallet's table handle, the checkpoint). `table` is a write counter's name: a
 * table, or a partial counter of it (`collections:identity` when no counting column is read).
 */
export interface Read {
  table: string;
  of: 'row' | 'token' | 'collection' | 'any';
}

export interface IndexerColumn {
  type: IndexerScalar;
  /** Null allowed in the official schema. */
  nullable: boolean;
  /** The value for the row `t`; timestamps are `timestamp without time zone` in UTC, as Hasura serves them. */
  sql: (t: Alias) => RawBuilder<unknown>;
  /** Tables its SQL reads beyond the table's own `reads` (versionTime's lookups are not counted). */
  reads?: readonly Read[];
}

export interface IndexerRelation {
  /** The related table's name. */
  target: string;
  /** What the related row is to the parent row: its token's row or its collection's (reads.ts). */
  of: 'token' | 'collection';
  /** The join condition between the row `parent` and the related row `child`. */
  on: (parent: Alias, child: Alias) => RawBuilder<unknown>;
}

export interface IndexerTable {
  name: string;
  description: string;
  /** The rows, as a FROM item aliased `t` (a table or a subquery). */
  from: (t: Alias) => RawBuilder<unknown>;
  /** The tables `from` reads. */
  reads: readonly Read[];
  /**
   * Columns that, compared `_eq` to one value in a conjunctive `where`, restrict the rows to one
   * scope of the write counters (reads.ts): a collection (`collection_id`), a token
   * (`token_data_id`), a wallet (the wallet columns functions/bump_wallet_version.sql counts the
   * table's rows under), a (creator, name) pair.
   */
  scopes: {
    collection?: string;
    token?: string;
    wallets?: readonly string[];
    pair?: readonly [creator: string, name: string];
  };
  columns: Record<string, IndexerColumn>;
  relations: Record<string, IndexerRelation>;
}

const col =
  (name: string) =>
  (t: Alias): RawBuilder<unknown> =>
    sql`${t}.${sql.ref(name)}`;

/**
 * The time of a chain version as Hasura returns `timestamp` (UTC, no zone): mdq keeps timestamps on
 * its activity rows, not on current-state rows, so a current row's last change is timed by the
 * activity of that version (both activity tables are keyed by version first), else by `fallback`.
 * A cached answer need not count these lookups (no `reads`): a version's activity rows are written
 * in the commit that indexes the version, the one that sets a current row's version to it, and
 * their version and time never change after; once the row is read, what the lookup finds is fixed.
 * The fallback's reads are the column's own.
 */
function versionTime(version: RawBuilder<unknown>, fallback: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(coalesce(
    (SELECT a.transaction_timestamp FROM token_activities a WHERE a.transaction_version = ${version} LIMIT 1),
    (SELECT m.transaction_timestamp FROM marketplace_activities m WHERE m.transaction_version = ${version} LIMIT 1),
    ${fallback}) AT TIME ZONE 'UTC')`;
}

/** `value` for one token standard, null for the other (the official `_v1` / `_v2` columns). */
const onlyFor = (standard: 'v1' | 'v2', t: Alias, value: RawBuilder<unknown>) =>
  sql`CASE WHEN ${t}.token_standard = ${sql.lit(standard)} THEN ${value} END`;

const text = (nullable: boolean, sqlOf: IndexerColumn['sql']): IndexerColumn => ({
  type: 'String',
  nullable,
  sql: sqlOf,
});
const of = (type: IndexerScalar, nullable: boolean, sqlOf: IndexerColumn['sql']): IndexerColumn => ({
  type,
  nullable,
  sql: sqlOf,
});

/** `column` with the tables its SQL reads beyond its table's `reads`. */
const reading = (column: IndexerColumn, ...reads: Read[]): IndexerColumn => ({ ...column, reads });

/** What a column of `collections`' counting columns reads: the whole row, not its identity part. */
const counting: Read = { table: 'collections', of: 'row' };

/** The official processors whose state mdq's one indexer checkpoint stands for. */
export const INDEXER_PROCESSORS = ['token_v2_processor', 'nft_aggregator'] as const;

/** A timestamptz as the aggregator's text timestamps: UTC, ISO 8601, no zone. */
const isoTime = (value: RawBuilder<unknown>) => sql`to_json(${value} AT TIME ZONE 'UTC') #>> '{}'`;

/** The standard event that left a current listing or offer in its state (the aggregator's last event type). */
const lastEvent = (t: Alias, kind: string, filled: string) =>
  sql`CASE ${t}.status WHEN 'active' THEN ${`place_${kind}`}::text WHEN ${filled} THEN ${`fill_${kind}`}::text
    ELSE ${`cancel_${kind}`}::text END`;

/**
 * The state columns every current listing / offer table has: closed or not, venue, last change
 * and the standard event that made it (`fallback` times a change that left no activity).
 */
function orderState(kind: string, filled: string, fallback: (t: Alias) => RawBuilder<unknown>) {
  return {
    is_deleted: of('Boolean', false, (t) => sql`(${t}.status <> 'active')`),
    marketplace: text(false, col('marketplace')),
    contract_address: text(false, col('contract_address')),
    last_transaction_version: of('bigint', false, col('last_transaction_version')),
    last_transaction_timestamp: of('timestamp', false, (t) =>
      versionTime(sql`${t}.last_transaction_version`, fallback(t)),
    ),
    standard_event_type: text(false, (t) => lastEvent(t, kind, filled)),
  };
}

const toTokenData: Record<string, IndexerRelation> = {
  current_token_data: {
    target: 'current_token_datas_v2',
    of: 'token',
    on: (p, c) => sql`${c}.token_data_id = ${p}.token_data_id`,
  },
};

/** The NFT aggregator's tables (the official aptos-nft-aggregator processor), over mdq's market tables. */
const MARKETPLACE_TABLES: IndexerTable[] = [
  {
    name: 'nft_marketplace_activities',
    description: 'Marketplace events of every venue mapped to standard event types, one row per event.',
    from: (t) => sql`marketplace_activities ${t}`,
    reads: [{ table: 'marketplace_activities', of: 'row' }],
    scopes: { collection: 'collection_id', token: 'token_data_id', wallets: ['buyer', 'seller'] },
    columns: {
      txn_version: of('bigint', false, col('transaction_version')),
      index: of('bigint', false, col('event_index')),
      raw_event_type: text(false, col('raw_event_type')),
      standard_event_type: text(false, col('kind')),
      creator_address: text(true, col('creator_address')),
      collection_id: text(true, col('collection_id')),
      collection_name: text(true, col('collection_name')),
      token_data_id: text(true, col('token_data_id')),
      token_name: text(true, col('token_name')),
      price: of('bigint', false, col('price')),
      token_amount: of('bigint', true, col('token_amount')),
      buyer: text(true, col('buyer')),
      seller: text(true, col('seller')),
      listing_id: text(true, col('listing_id')),
      offer_id: text(true, col('offer_id')),
      json_data: of('jsonb', true, () => sql`NULL::jsonb`),
      marketplace: text(false, col('marketplace')),
      contract_address: text(false, col('contract_address')),
      block_timestamp: of('timestamp', false, (t) => sql`(${t}.transaction_timestamp AT TIME ZONE 'UTC')`),
      expiration_time: text(true, () => sql`NULL::text`),
      bid_key: of('bigint', true, () => sql`NULL::bigint`),
    },
    relations: toTokenData,
  },
  {
    name: 'current_nft_marketplace_listings',
    description: 'Each listing of every venue, current state (closed ones with is_deleted).',
    from: (t) => sql`listings ${t}`,
    reads: [{ table: 'listings', of: 'row' }],
    scopes: { collection: 'collection_id', token: 'token_data_id', wallets: ['seller'] },
    columns: {
      token_data_id: text(false, col('token_data_id')),
      listing_id: text(false, col('listing_id')),
      collection_id: text(true, col('collection_id')),
      seller: text(true, col('seller')),
      price: of('bigint', false, col('price')),
      token_amount: of('bigint', true, col('token_amount')),
      token_name: text(true, col('token_name')),
      ...orderState('listing', 'sold', (t) => sql`coalesce(${t}.closed_at, ${t}.listed_at)`),
    },
    relations: toTokenData,
  },
  {
    name: 'current_nft_marketplace_token_offers',
    description: 'Each offer on one token of every venue, current state (closed ones with is_deleted).',
    from: (t) => sql`token_offers ${t}`,
    reads: [{ table: 'token_offers', of: 'row' }],
    scopes: { collection: 'collection_id', token: 'token_data_id', wallets: ['buyer'] },
    columns: {
      token_data_id: text(false, col('token_data_id')),
      offer_id: text(false, col('offer_id')),
      collection_id: text(true, col('collection_id')),
      buyer: text(false, col('buyer')),
      price: of('bigint', false, col('price')),
      token_amount: of('bigint', true, col('token_amount')),
      token_name: text(true, col('token_name')),
      ...orderState('token_offer', 'filled', (t) => sql`${t}.created_at`),
      expiration_time: text(true, (t) => isoTime(sql`${t}.expiration_time`)),
      bid_key: of('bigint', true, () => sql`NULL::bigint`),
    },
    relations: toTokenData,
  },
  {
    name: 'current_nft_marketplace_collection_offers',
    description: 'Each offer on any token of a collection, of every venue, current state.',
    from: (t) => sql`collection_offers ${t}`,
    reads: [{ table: 'collection_offers', of: 'row' }],
    // Its token_data_id is the official column's constant null, no scope.
    scopes: { collection: 'collection_id', wallets: ['buyer'] },
    columns: {
      collection_offer_id: text(false, col('offer_id')),
      collection_id: text(true, col('collection_id')),
      buyer: text(false, col('buyer')),
      price: of('bigint', false, col('price')),
      remaining_token_amount: of('bigint', true, col('remaining_amount')),
      ...orderState('collection_offer', 'filled', (t) => sql`${t}.created_at`),
      token_data_id: text(true, () => sql`NULL::text`),
      expiration_time: text(true, (t) => isoTime(sql`${t}.expiration_time`)),
      bid_key: of('bigint', true, () => sql`NULL::bigint`),
    },
    relations: {
      current_collection: {
        target: 'current_collections_v2',
        of: 'collection',
        on: (p, c) => sql`${c}.collection_id = ${p}.collection_id`,
      },
    },
  },
];

export const INDEXER_TABLES: IndexerTable[] = [
  {
    name: 'current_token_ownerships_v2',
    description: 'Who holds how much of each token (v1 per property version), current state.',
    from: (t) => sql`token_ownerships ${t}`,
    reads: [{ table: 'token_ownerships', of: 'row' }],
    scopes: { token: 'token_data_id', wallets: ['owner_address'] },
    columns: {
      token_data_id: text(false, col('token_data_id')),
      property_version_v1: of('numeric', false, col('property_version')),
      owner_address: text(false, col('owner_address')),
      // v2: the token object holds itself; v1: the owner's TokenStore table, which mdq does not key by.
      storage_id: reading(
        text(
          false,
          (t) => sql`CASE WHEN ${t}.token_standard = 'v2' THEN ${t}.token_data_id ELSE
          coalesce((SELECT h.handle FROM table_handle_owners h WHERE h.owner_address = ${t}.owner_address
            AND h.kind = 'token_store' LIMIT 1), ${t}.owner_address) END`,
        ),
        { table: 'table_handle_owners', of: 'any' },
      ),
      amount: of('numeric', false, col('amount')),
      table_type_v1: text(true, (t) => onlyFor('v1', t, sql`'0x3::token::TokenStore'`)),
      token_properties_mutated_v1: of('jsonb', true, (t) => onlyFor('v1', t, sql`'{}'::jsonb`)),
      is_soulbound_v2: of('Boolean', true, (t) => onlyFor('v2', t, sql`${t}.is_soulbound`)),
      token_standard: text(false, col('token_standard')),
      is_fungible_v2: of('Boolean', true, () => sql`NULL::boolean`),
      last_transaction_version: of('bigint', false, col('last_transaction_version')),
      last_transaction_timestamp: reading(
        of('timestamp', false, (t) =>
          versionTime(
            sql`${t}.last_transaction_version`,
            sql`(SELECT k.minted_at FROM tokens k WHERE k.token_data_id = ${t}.token_data_id)`,
          ),
        ),
        { table: 'tokens', of: 'token' },
      ),
      non_transferrable_by_owner: of('Boolean', true, (t) => onlyFor('v2', t, sql`${t}.is_soulbound`)),
    },
    relations: {
      current_token_data: {
        target: 'current_token_datas_v2',
        of: 'token',
        on: (p, c) => sql`${c}.token_data_id = ${p}.token_data_id`,
      },
    },
  },
  {
    name: 'current_token_datas_v2',
    description: 'Each token (v1 token data or v2 token object), current state.',
    from: (t) => sql`tokens ${t}`,
    reads: [{ table: 'tokens', of: 'row' }],
    scopes: { collection: 'collection_id', token: 'token_data_id' },
    columns: {
      token_data_id: text(false, col('token_data_id')),
      collection_id: text(false, col('collection_id')),
      token_name: text(false, col('token_name')),
      maximum: of('numeric', true, (t) => onlyFor('v1', t, sql`${t}.maximum`)),
      supply: of('numeric', true, (t) => onlyFor('v1', t, sql`${t}.supply`)),
      largest_property_version_v1: of('numeric', true, (t) =>
        onlyFor('v1', t, sql`${t}.largest_property_version`),
      ),
      token_uri: text(false, (t) => sql`coalesce(${t}.token_uri, '')`),
      description: text(false, (t) => sql`coalesce(${t}.description, '')`),
      // Null where the token has no property map, as the official rows keep it.
      token_properties: of('jsonb', false, col('properties')),
      token_standard: text(false, col('token_standard')),
      is_fungible_v2: of('Boolean', true, (t) => onlyFor('v2', t, sql`false`)),
      last_transaction_version: of('bigint', false, col('last_transaction_version')),
      last_transaction_timestamp: of('timestamp', false, (t) =>
        versionTime(sql`${t}.last_transaction_version`, sql`${t}.minted_at`),
      ),
      is_deleted_v2: of('Boolean', true, (t) => onlyFor('v2', t, sql`${t}.is_burned`)),
      decimals: of('bigint', true, () => sql`0::bigint`),
    },
    relations: {
      current_collection: {
        target: 'current_collections_v2',
        of: 'collection',
        on: (p, c) => sql`${c}.collection_id = ${p}.collection_id`,
      },
    },
  },
  {
    name: 'current_collections_v2',
    description: 'Each collection (v1 or v2), current state.',
    from: (t) => sql`collections ${t}`,
    // Its counting columns (COLLECTION_COUNT_COLUMNS) read `collections` whole: theirs say so.
    reads: [{ table: 'collections:identity', of: 'row' }],
    scopes: { collection: 'collection_id', pair: ['creator_address', 'collection_name'] },
    columns: {
      collection_id: text(false, col('collection_id')),
      creator_address: text(false, col('creator_address')),
      collection_name: text(false, col('collection_name')),
      description: text(false, (t) => sql`coalesce(${t}.description, '')`),
      uri: text(false, (t) => sql`coalesce(${t}.uri, '')`),
      current_supply: reading(
        of('numeric', false, (t) => sql`coalesce(${t}.current_supply, 0)`),
        counting,
      ),
      max_supply: of('numeric', true, col('max_supply')),
      total_minted_v2: reading(
        of('numeric', true, (t) => onlyFor('v2', t, sql`${t}.total_minted`)),
        counting,
      ),
      mutable_description: of('Boolean', true, () => sql`NULL::boolean`),
      mutable_uri: of('Boolean', true, () => sql`NULL::boolean`),
      table_handle_v1: reading(
        text(true, (t) =>
          onlyFor(
            'v1',
            t,
            sql`(SELECT h.handle FROM table_handle_owners h WHERE h.owner_address = ${t}.creator_address
              AND h.kind = 'collections' LIMIT 1)`,
          ),
        ),
        { table: 'table_handle_owners', of: 'any' },
      ),
      token_standard: text(false, col('token_standard')),
      last_transaction_version: reading(of('bigint', false, col('last_transaction_version')), counting),
      last_transaction_timestamp: reading(
        of('timestamp', false, (t) => versionTime(sql`${t}.last_transaction_version`, sql`${t}.created_at`)),
        counting,
      ),
      collection_properties: of('jsonb', true, () => sql`NULL::jsonb`),
    },
    relations: {},
  },
  {
    name: 'token_activities_v2',
    description:
      'Token events (mint, transfer, deposit, withdraw, burn, offers and claims), one row per event.',
    // mdq's extra `create` rows (a v1 token's creation) are not official activities.
    from: (t) => sql`(SELECT * FROM token_activities WHERE kind <> 'create') ${t}`,
    reads: [{ table: 'token_activities', of: 'row' }],
    scopes: { token: 'token_data_id' },
    columns: {
      transaction_version: of('bigint', false, col('transaction_version')),
      event_index: of('bigint', false, col('event_index')),
      event_account_address: text(false, () => sql`NULL::text`),
      token_data_id: text(false, col('token_data_id')),
      property_version_v1: of('numeric', false, col('property_version')),
      type: text(false, col('event_type')),
      from_address: text(true, col('from_address')),
      to_address: text(true, col('to_address')),
      token_amount: of('numeric', false, col('amount')),
      before_value: text(true, () => sql`NULL::text`),
      after_value: text(true, () => sql`NULL::text`),
      entry_function_id_str: text(true, () => sql`NULL::text`),
      token_standard: text(false, col('token_standard')),
      is_fungible_v2: of('Boolean', true, () => sql`NULL::boolean`),
      transaction_timestamp: of(
        'timestamp',
        false,
        (t) => sql`(${t}.transaction_timestamp AT TIME ZONE 'UTC')`,
      ),
    },
    relations: {
      current_token_data: {
        target: 'current_token_datas_v2',
        of: 'token',
        on: (p, c) => sql`${c}.token_data_id = ${p}.token_data_id`,
      },
    },
  },
  {
    name: 'current_collection_ownership_v2_view',
    description: 'How many distinct tokens of each collection each wallet holds.',
    // The official view: held ownerships joined to their token and its collection, per owner and collection.
    from: (t) => sql`(SELECT o.owner_address, k.collection_id, c.collection_name, c.creator_address,
        c.uri AS collection_uri, count(DISTINCT o.token_data_id) AS distinct_tokens,
        max(o.last_transaction_version) AS last_transaction_version, min(k.token_uri) AS single_token_uri
      FROM token_ownerships o
      JOIN tokens k ON k.token_data_id = o.token_data_id
      JOIN collections c ON c.collection_id = k.collection_id
      WHERE o.amount > 0
      GROUP BY o.owner_address, k.collection_id, c.collection_name, c.creator_address, c.uri) ${t}`,
    reads: [
      { table: 'token_ownerships', of: 'row' },
      { table: 'tokens', of: 'token' },
      { table: 'collections:identity', of: 'collection' },
    ],
    scopes: { collection: 'collection_id', wallets: ['owner_address'] },
    columns: {
      owner_address: text(true, col('owner_address')),
      collection_id: text(true, col('collection_id')),
      collection_name: text(true, col('collection_name')),
      collection_uri: text(true, col('collection_uri')),
      creator_address: text(true, col('creator_address')),
      distinct_tokens: of('bigint', true, col('distinct_tokens')),
      last_transaction_version: of('bigint', true, col('last_transaction_version')),
      single_token_uri: text(true, col('single_token_uri')),
    },
    relations: {
      current_collection: {
        target: 'current_collections_v2',
        of: 'collection',
        on: (p, c) => sql`${c}.collection_id = ${p}.collection_id`,
      },
    },
  },
  {
    name: 'processor_status',
    description: "The official processors mdq stands in for, each at mdq's indexer checkpoint.",
    from: (t) => sql`(SELECT p.processor, c.last_version AS last_success_version,
        c.last_timestamp AS last_transaction_timestamp, k.updated_at AS last_updated
      FROM unnest(${sql.val([...INDEXER_PROCESSORS])}::text[]) AS p(processor)
      CROSS JOIN ${feedCheckpointRow} c
      LEFT JOIN LATERAL (SELECT max(updated_at) AS updated_at FROM indexer_checkpoints) k ON true) ${t}`,
    reads: [{ table: 'indexer_checkpoints', of: 'any' }],
    scopes: {},
    columns: {
      processor: text(false, col('processor')),
      last_success_version: of('bigint', false, col('last_success_version')),
      last_updated: of('timestamp', false, (t) => sql`(${t}.last_updated AT TIME ZONE 'UTC')`),
      last_transaction_timestamp: of(
        'timestamp',
        true,
        (t) => sql`(${t}.last_transaction_timestamp AT TIME ZONE 'UTC')`,
      ),
    },
    relations: {},
  },
  ...MARKETPLACE_TABLES,
];
