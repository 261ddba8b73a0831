import { type Kysely, sql } from 'kysely';

/*
 * The whole data model in one frozen migration. Conventions:
 * - addresses and ids are text in long form (0x + 64 hex);
 * - chain u64 values (prices, amounts, supplies) are numeric(20, 0), read back as strings;
 * - events are keyed by (transaction_version, event_index), current-state rows by their natural key
 *   and carry last_transaction_version so that only a newer version may overwrite them;
 * - every read path of the API has an index here (partial where the API only reads active rows).
 * Every statement is IF NOT EXISTS so that a half-applied migration can be re-run safely.
 */
const U64 = 'numeric(20, 0)';

const statements = [
  'CREATE EXTENSION IF NOT EXISTS pg_trgm',

  // ---------------------------------------------------------------- chain state
  `CREATE TABLE IF NOT EXISTS collections (
    collection_id text PRIMARY KEY,
    token_standard text NOT NULL CHECK (token_standard IN ('v1', 'v2')),
    creator_address text NOT NULL,
    collection_name text NOT NULL,
    description text,
    uri text,
    current_supply ${U64},
    max_supply ${U64},
    total_minted ${U64},
    owner_count integer NOT NULL DEFAULT 0,
    lootbox_id bigint,
    created_at timestamptz NOT NULL,
    created_version bigint NOT NULL,
    last_transaction_version bigint NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS collections_creator_name ON collections (creator_address, collection_name)',
  'CREATE INDEX IF NOT EXISTS collections_name_trgm ON collections USING gin (collection_name gin_trgm_ops)',
  'CREATE INDEX IF NOT EXISTS collections_created ON collections (created_at DESC, collection_id)',

  `CREATE TABLE IF NOT EXISTS tokens (
    token_data_id text PRIMARY KEY,
    token_standard text NOT NULL CHECK (token_standard IN ('v1', 'v2')),
    collection_id text NOT NULL,
    creator_address text,
    collection_name text,
    token_name text NOT NULL,
    description text,
    token_uri text,
    properties jsonb,
    supply ${U64},
    maximum ${U64},
    largest_property_version ${U64},
    is_soulbound boolean NOT NULL DEFAULT false,
    is_burned boolean NOT NULL DEFAULT false,
    lootbox_id bigint,
    lootbox_tier text,
    minted_at timestamptz,
    minted_version bigint,
    last_transaction_version bigint NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS tokens_collection_name ON tokens (collection_id, token_name, token_data_id)',
  'CREATE INDEX IF NOT EXISTS tokens_creator_collection ON tokens (creator_address, collection_name, token_name)',
  'CREATE INDEX IF NOT EXISTS tokens_lootbox ON tokens (lootbox_id, token_data_id) WHERE lootbox_id IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS tokens_name_trgm ON tokens USING gin (token_name gin_trgm_ops)',

  // Traits as rows, so that "how many tokens share this value" is an index lookup.
  `CREATE TABLE IF NOT EXISTS token_attributes (
    token_data_id text NOT NULL,
    trait_type text NOT NULL,
    collection_id text NOT NULL,
    value text NOT NULL,
    PRIMARY KEY (token_data_id, trait_type)
  )`,
  'CREATE INDEX IF NOT EXISTS token_attributes_collection ON token_attributes (collection_id, trait_type, value)',

  `CREATE TABLE IF NOT EXISTS token_ownerships (
    token_data_id text NOT NULL,
    property_version ${U64} NOT NULL DEFAULT 0,
    owner_address text NOT NULL,
    collection_id text,
    token_standard text NOT NULL,
    amount ${U64} NOT NULL,
    is_soulbound boolean NOT NULL DEFAULT false,
    last_transaction_version bigint NOT NULL,
    PRIMARY KEY (token_data_id, property_version, owner_address)
  )`,
  'CREATE INDEX IF NOT EXISTS ownerships_owner ON token_ownerships (owner_address, collection_id, token_data_id) WHERE amount > 0',
  'CREATE INDEX IF NOT EXISTS ownerships_collection ON token_ownerships (collection_id, owner_address) WHERE amount > 0',

  // v1 balances live in per-account tables; the indexer remembers which account owns which handle.
  `CREATE TABLE IF NOT EXISTS table_handle_owners (
    handle text PRIMARY KEY,
    owner_address text NOT NULL,
    kind text NOT NULL,
    last_transaction_version bigint NOT NULL
  )`,

  `CREATE TABLE IF NOT EXISTS token_pending_claims (
    token_data_id text NOT NULL,
    property_version ${U64} NOT NULL,
    from_address text NOT NULL,
    to_address text NOT NULL,
    collection_id text,
    amount ${U64} NOT NULL,
    last_transaction_version bigint NOT NULL,
    PRIMARY KEY (token_data_id, property_version, from_address, to_address)
  )`,
  'CREATE INDEX IF NOT EXISTS pending_claims_to ON token_pending_claims (to_address) WHERE amount > 0',

  `CREATE TABLE IF NOT EXISTS token_activities (
    transaction_version bigint NOT NULL,
    event_index integer NOT NULL,
    kind text NOT NULL,
    event_type text NOT NULL,
    token_data_id text NOT NULL,
    token_standard text NOT NULL,
    collection_id text,
    property_version ${U64} NOT NULL DEFAULT 0,
    from_address text,
    to_address text,
    amount ${U64} NOT NULL,
    transaction_timestamp timestamptz NOT NULL,
    PRIMARY KEY (transaction_version, event_index)
  )`,
  'CREATE INDEX IF NOT EXISTS token_activities_token ON token_activities (token_data_id, transaction_version DESC, event_index DESC)',
  'CREATE INDEX IF NOT EXISTS token_activities_from ON token_activities (from_address, transaction_version DESC) WHERE from_address IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS token_activities_to ON token_activities (to_address, transaction_version DESC) WHERE to_address IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS token_activities_collection ON token_activities (collection_id, transaction_version DESC)',
  'CREATE INDEX IF NOT EXISTS token_activities_time ON token_activities (transaction_timestamp)',

  // ---------------------------------------------------------------- market
  `CREATE TABLE IF NOT EXISTS marketplace_activities (
    transaction_version bigint NOT NULL,
    event_index integer NOT NULL,
    kind text NOT NULL,
    marketplace text NOT NULL,
    contract_address text NOT NULL,
    raw_event_type text NOT NULL,
    token_data_id text,
    token_standard text,
    property_version ${U64},
    collection_id text,
    collection_name text,
    creator_address text,
    token_name text,
    price ${U64} NOT NULL,
    token_amount ${U64} NOT NULL,
    coin_type text,
    seller text,
    buyer text,
    listing_id text,
    offer_id text,
    commission ${U64},
    royalties ${U64},
    transaction_timestamp timestamptz NOT NULL,
    PRIMARY KEY (transaction_version, event_index)
  )`,
  'CREATE INDEX IF NOT EXISTS market_activities_token ON marketplace_activities (token_data_id, transaction_version DESC, event_index DESC)',
  'CREATE INDEX IF NOT EXISTS market_activities_collection ON marketplace_activities (collection_id, transaction_version DESC, event_index DESC)',
  'CREATE INDEX IF NOT EXISTS market_activities_seller ON marketplace_activities (seller, transaction_version DESC, event_index DESC) WHERE seller IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS market_activities_buyer ON marketplace_activities (buyer, transaction_version DESC, event_index DESC) WHERE buyer IS NOT NULL',
  `CREATE INDEX IF NOT EXISTS market_activities_offer ON marketplace_activities (marketplace, offer_id, kind)
    WHERE offer_id IS NOT NULL`,
  // Window aggregates (volume, sales, buyers) read only fills, by time.
  `CREATE INDEX IF NOT EXISTS market_activities_fills ON marketplace_activities (transaction_timestamp, collection_id)
    INCLUDE (price, buyer) WHERE kind IN ('fill_listing', 'fill_token_offer', 'fill_collection_offer')`,
  `CREATE INDEX IF NOT EXISTS market_activities_collection_fills ON marketplace_activities (collection_id, transaction_timestamp)
    INCLUDE (price, buyer) WHERE kind IN ('fill_listing', 'fill_token_offer', 'fill_collection_offer')`,

  `CREATE TABLE IF NOT EXISTS listings (
    marketplace text NOT NULL,
    listing_id text NOT NULL,
    contract_address text NOT NULL,
    token_data_id text NOT NULL,
    token_standard text,
    property_version ${U64},
    collection_id text,
    collection_name text,
    creator_address text,
    token_name text,
    seller text,
    buyer text,
    price ${U64} NOT NULL,
    token_amount ${U64} NOT NULL DEFAULT 1,
    coin_type text,
    status text NOT NULL CHECK (status IN ('active', 'sold', 'cancelled')),
    listed_at timestamptz,
    listed_version bigint,
    closed_at timestamptz,
    last_transaction_version bigint NOT NULL,
    PRIMARY KEY (marketplace, listing_id)
  )`,
  `CREATE INDEX IF NOT EXISTS listings_active_collection_price ON listings (collection_id, price, listed_version DESC)
    WHERE status = 'active'`,
  `CREATE INDEX IF NOT EXISTS listings_active_recent ON listings (listed_version DESC, marketplace, listing_id)
    WHERE status = 'active'`,
  `CREATE INDEX IF NOT EXISTS listings_active_price ON listings (price, listed_version DESC) WHERE status = 'active'`,
  `CREATE INDEX IF NOT EXISTS listings_active_seller ON listings (seller, listed_version DESC) WHERE status = 'active'`,
  'CREATE INDEX IF NOT EXISTS listings_token ON listings (token_data_id, last_transaction_version DESC)',
  `CREATE INDEX IF NOT EXISTS listings_active_creator_name ON listings (creator_address, collection_name, price)
    WHERE status = 'active'`,
  `CREATE INDEX IF NOT EXISTS listings_active_token_name_trgm ON listings USING gin (token_name gin_trgm_ops)
    WHERE status = 'active'`,

  `CREATE TABLE IF NOT EXISTS token_offers (
    marketplace text NOT NULL,
    offer_id text NOT NULL,
    contract_address text NOT NULL,
    token_data_id text NOT NULL,
    token_standard text,
    property_version ${U64},
    collection_id text,
    collection_name text,
    creator_address text,
    token_name text,
    buyer text NOT NULL,
    seller text,
    price ${U64} NOT NULL,
    token_amount ${U64} NOT NULL DEFAULT 1,
    coin_type text,
    status text NOT NULL CHECK (status IN ('active', 'filled', 'cancelled')),
    expiration_time timestamptz,
    created_at timestamptz,
    created_version bigint,
    last_transaction_version bigint NOT NULL,
    PRIMARY KEY (marketplace, offer_id)
  )`,
  `CREATE INDEX IF NOT EXISTS token_offers_active_collection ON token_offers (collection_id, price DESC)
    WHERE status = 'active'`,
  `CREATE INDEX IF NOT EXISTS token_offers_active_buyer ON token_offers (buyer, created_version DESC)
    WHERE status = 'active'`,
  'CREATE INDEX IF NOT EXISTS token_offers_token ON token_offers (token_data_id, price DESC)',

  `CREATE TABLE IF NOT EXISTS collection_offers (
    marketplace text NOT NULL,
    offer_id text NOT NULL,
    contract_address text NOT NULL,
    collection_id text,
    collection_name text,
    creator_address text,
    buyer text NOT NULL,
    price ${U64} NOT NULL,
    token_amount ${U64} NOT NULL,
    remaining_amount ${U64} NOT NULL,
    coin_type text,
    status text NOT NULL CHECK (status IN ('active', 'filled', 'cancelled')),
    expiration_time timestamptz,
    created_at timestamptz,
    created_version bigint,
    last_transaction_version bigint NOT NULL,
    PRIMARY KEY (marketplace, offer_id)
  )`,
  `CREATE INDEX IF NOT EXISTS collection_offers_active_collection ON collection_offers (collection_id, price DESC)
    WHERE status = 'active'`,
  `CREATE INDEX IF NOT EXISTS collection_offers_active_buyer ON collection_offers (buyer, created_version DESC)
    WHERE status = 'active'`,

  // ---------------------------------------------------------------- lootboxes
  `CREATE TABLE IF NOT EXISTS lootboxes (
    lootbox_id bigint PRIMARY KEY,
    creator_address text NOT NULL,
    collection_name text NOT NULL,
    collection_id text NOT NULL,
    price ${U64} NOT NULL,
    coin_type text NOT NULL,
    max_supply ${U64} NOT NULL,
    mint_start timestamptz NOT NULL,
    mint_end timestamptz,
    paused boolean NOT NULL DEFAULT false,
    minted ${U64} NOT NULL DEFAULT 0,
    purchased ${U64} NOT NULL DEFAULT 0,
    revenue ${U64} NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL,
    created_version bigint NOT NULL,
    last_transaction_version bigint NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS lootboxes_creator_collection ON lootboxes (creator_address, collection_name)',
  'CREATE INDEX IF NOT EXISTS lootboxes_collection ON lootboxes (collection_id)',
  'CREATE INDEX IF NOT EXISTS lootboxes_created ON lootboxes (created_at DESC, lootbox_id DESC)',
  'CREATE INDEX IF NOT EXISTS lootboxes_mint_start ON lootboxes (mint_start, lootbox_id)',

  `CREATE TABLE IF NOT EXISTS lootbox_tiers (
    lootbox_id bigint NOT NULL,
    tier_name text NOT NULL,
    position integer NOT NULL,
    weight ${U64} NOT NULL,
    max_supply ${U64} NOT NULL,
    minted ${U64} NOT NULL DEFAULT 0,
    PRIMARY KEY (lootbox_id, tier_name)
  )`,

  `CREATE TABLE IF NOT EXISTS lootbox_purchases (
    transaction_version bigint NOT NULL,
    event_index integer NOT NULL,
    lootbox_id bigint NOT NULL,
    buyer text NOT NULL,
    quantity ${U64} NOT NULL,
    amount_paid ${U64} NOT NULL,
    coin_type text NOT NULL,
    transaction_timestamp timestamptz NOT NULL,
    PRIMARY KEY (transaction_version, event_index)
  )`,
  'CREATE INDEX IF NOT EXISTS lootbox_purchases_lootbox ON lootbox_purchases (lootbox_id, transaction_timestamp) INCLUDE (amount_paid)',
  'CREATE INDEX IF NOT EXISTS lootbox_purchases_buyer ON lootbox_purchases (buyer, transaction_version DESC)',

  `CREATE TABLE IF NOT EXISTS lootbox_reveals (
    transaction_version bigint NOT NULL,
    event_index integer NOT NULL,
    lootbox_id bigint NOT NULL,
    owner_address text NOT NULL,
    token_data_id text NOT NULL,
    tier text NOT NULL,
    transaction_timestamp timestamptz NOT NULL,
    PRIMARY KEY (transaction_version, event_index)
  )`,
  'CREATE INDEX IF NOT EXISTS lootbox_reveals_lootbox ON lootbox_reveals (lootbox_id, tier)',
  'CREATE INDEX IF NOT EXISTS lootbox_reveals_token ON lootbox_reveals (token_data_id)',

  // ---------------------------------------------------------------- derived (worker)
  `CREATE TABLE IF NOT EXISTS collection_snapshots (
    collection_id text NOT NULL,
    snapshot_at timestamptz NOT NULL,
    floor_price ${U64},
    holder_count integer NOT NULL,
    listed_count integer NOT NULL,
    current_supply ${U64} NOT NULL,
    PRIMARY KEY (collection_id, snapshot_at)
  )`,
  'CREATE INDEX IF NOT EXISTS collection_snapshots_time ON collection_snapshots (snapshot_at)',

  `CREATE TABLE IF NOT EXISTS ranking_snapshots (
    ranking text NOT NULL,
    position integer NOT NULL,
    collection_id text,
    lootbox_id bigint,
    score double precision NOT NULL,
    metrics jsonb NOT NULL,
    computed_at timestamptz NOT NULL,
    PRIMARY KEY (ranking, position)
  )`,
  `CREATE TABLE IF NOT EXISTS ranking_runs (
    ranking text PRIMARY KEY,
    computed_at timestamptz NOT NULL,
    window_start timestamptz,
    window_end timestamptz,
    entries integer NOT NULL
  )`,

  `CREATE TABLE IF NOT EXISTS social_signals (
    collection_id text NOT NULL,
    observed_on date NOT NULL,
    engagement double precision NOT NULL CHECK (engagement >= 0),
    source text,
    PRIMARY KEY (collection_id, observed_on)
  )`,

  `CREATE TABLE IF NOT EXISTS token_rarity (
    token_data_id text PRIMARY KEY,
    collection_id text NOT NULL,
    score double precision NOT NULL,
    rank integer NOT NULL,
    trait_count integer NOT NULL,
    computed_at timestamptz NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS token_rarity_collection ON token_rarity (collection_id, rank, token_data_id)',

  `CREATE TABLE IF NOT EXISTS user_inventory_snapshots (
    owner_address text NOT NULL,
    snapshot_at timestamptz NOT NULL,
    token_count integer NOT NULL,
    floor_value ${U64} NOT NULL,
    PRIMARY KEY (owner_address, snapshot_at)
  )`,

  `CREATE TABLE IF NOT EXISTS collection_uri_cache (
    collection_id text PRIMARY KEY,
    metadata_uri text,
    image_url text,
    content_type text,
    status text NOT NULL CHECK (status IN ('ok', 'error', 'pending')),
    error text,
    attempts integer NOT NULL DEFAULT 0,
    fetched_at timestamptz,
    expires_at timestamptz
  )`,
  'CREATE INDEX IF NOT EXISTS collection_uri_cache_expiry ON collection_uri_cache (expires_at)',

  // ---------------------------------------------------------------- operations
  `CREATE TABLE IF NOT EXISTS api_keys (
    key_id text PRIMARY KEY,
    key_hash text NOT NULL UNIQUE,
    name text NOT NULL,
    rate_limit_per_minute integer,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz,
    last_used_at timestamptz
  )`,

  `CREATE TABLE IF NOT EXISTS indexer_checkpoints (
    name text PRIMARY KEY,
    last_version bigint NOT NULL,
    last_timestamp timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,

  `CREATE TABLE IF NOT EXISTS failed_transactions (
    transaction_version bigint PRIMARY KEY,
    reason text NOT NULL,
    payload jsonb,
    failed_at timestamptz NOT NULL DEFAULT now()
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const tables = statements
    .map((s) => /^CREATE TABLE IF NOT EXISTS (\w+)/.exec(s)?.[1])
    .filter((t): t is string => t !== undefined)
    .reverse();
  for (const table of tables) await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
}
