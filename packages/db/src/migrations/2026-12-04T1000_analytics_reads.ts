import { type Kysely, sql } from 'kysely';

/*
 * Index-only reads for the analytics routes on the 1M chain's largest collection (32k tokens, 10k
 * listings), where collection-stats took 250 ms a request and trait floors 260-390 ms:
 *
 * - Top holders read the collection's (holder, token) ownerships through `ownerships_collection`,
 *   then each row's heap page for its token id: 20,000 pages, 240 ms. With the token id and
 *   property version in the index the read is index-only: 52 ms, the rest hashing the holders.
 * - The floor at a window's start looks for tokens burned while listed among the collection's
 *   listings by `listings_collection_closed`, then their heap pages for the token id: 6,700 pages,
 *   77-94 ms. With it in the index: 8.5 ms.
 * - `minted` is the live tokens (kept in collection_trait_totals) plus the burned ones, which this
 *   small partial index counts without reading the collection's 32k token entries (15-27 ms).
 * - collection-trait-floors' last sale per trait value reads the collection's sales newest first,
 *   stopping at each value's first; the sales in chain order, with what the sales filter tests, make
 *   that an index-only read (365 ms for the join it replaces; 4-8 ms).
 *
 * The two widened indexes keep their key columns, so every plan that used them still can.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS ownerships_collection_holders ON token_ownerships
              (collection_id, owner_address) INCLUDE (token_data_id, property_version) WHERE amount > 0`.execute(
    db,
  );
  await sql`DROP INDEX IF EXISTS ownerships_collection`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS listings_collection_closed_tokens ON listings
              (collection_id, closed_at) INCLUDE (token_data_id)`.execute(db);
  await sql`DROP INDEX IF EXISTS listings_collection_closed`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS tokens_collection_burned ON tokens (collection_id) WHERE is_burned`.execute(
    db,
  );
  await sql`CREATE INDEX IF NOT EXISTS market_activities_collection_recent_sales ON marketplace_activities
              (collection_id, transaction_version DESC, event_index DESC)
              INCLUDE (token_data_id, price, transaction_timestamp, coin_type, wash_flags)
              WHERE kind IN ('fill_listing', 'fill_token_offer', 'fill_collection_offer')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS ownerships_collection ON token_ownerships (collection_id, owner_address)
              WHERE amount > 0`.execute(db);
  await sql`DROP INDEX IF EXISTS ownerships_collection_holders`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS listings_collection_closed ON listings (collection_id, closed_at)`.execute(
    db,
  );
  await sql`DROP INDEX IF EXISTS listings_collection_closed_tokens`.execute(db);
  await sql`DROP INDEX IF EXISTS tokens_collection_burned`.execute(db);
  await sql`DROP INDEX IF EXISTS market_activities_collection_recent_sales`.execute(db);
}
