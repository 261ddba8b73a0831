import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import {
  type CursorValue,
  decodeCursor,
  keysetAfter,
  kindsOf,
  offsetOf,
  type Page,
  type PageRequest,
  type SortKey,
  toPage,
} from './pagination';
import { TOKEN_COLUMNS, type TokenRecord, type TokenSummary, toTokenSummary } from './token-rows';

const BY_NAME: SortKey[] = [
  { expr: sql`t.token_name`, dir: 'asc', kind: 'text' },
  { expr: sql`t.token_data_id`, dir: 'asc', kind: 'text' },
];
const BY_ID: SortKey[] = [{ expr: sql`t.token_data_id`, dir: 'asc', kind: 'text' }];

/** Live (unburned) tokens matching `where`, in the order of the index that serves `where`. */
async function tokenPage(
  db: Db,
  where: RawBuilder<unknown>,
  keys: SortKey[],
  request: PageRequest,
): Promise<Page<TokenSummary>> {
  const after = request.cursor ? keysetAfter(keys, decodeCursor(request.cursor, kindsOf(keys))) : sql`true`;
  const order = sql.join(
    keys.map((k) => sql`${k.expr} ${sql.raw(k.dir)}`),
    sql`, `,
  );
  const [{ rows }, { rows: count }] = await Promise.all([
    sql<TokenRecord>`
      SELECT ${TOKEN_COLUMNS}
        FROM tokens t LEFT JOIN collections c ON c.collection_id = t.collection_id
       WHERE ${where} AND NOT t.is_burned AND ${after}
       ORDER BY ${order}
       LIMIT ${request.limit + 1} OFFSET ${offsetOf(request)}`.execute(db),
    sql<{
      total: number;
    }>`SELECT count(*)::int AS total FROM tokens t WHERE ${where} AND NOT t.is_burned`.execute(db),
  ]);
  const keyOf = (r: TokenRecord): CursorValue[] =>
    keys === BY_NAME ? [r.token_name, r.token_data_id] : [r.token_data_id];
  return toPage(rows, request, count[0]?.total ?? 0, keyOf, toTokenSummary);
}

export function tokensOfCollections(
  db: Db,
  collectionIds: string[],
  request: PageRequest,
): Promise<Page<TokenSummary>> {
  return tokenPage(db, sql`t.collection_id = ANY(${collectionIds})`, BY_NAME, request);
}

export function tokensOfLootbox(
  db: Db,
  lootboxId: number,
  request: PageRequest,
): Promise<Page<TokenSummary>> {
  return tokenPage(db, sql`t.lootbox_id = ${lootboxId}`, BY_ID, request);
}

/** One token by its id (token data id / object address). */
export async function findTokenById(db: Db, tokenId: string): Promise<TokenSummary | null> {
  const { rows } = await sql<TokenRecord>`
    SELECT ${TOKEN_COLUMNS} FROM tokens t LEFT JOIN collections c ON c.collection_id = t.collection_id
     WHERE t.token_data_id = ${tokenId}`.execute(db);
  return rows[0] ? toTokenSummary(rows[0]) : null;
}

/**
 * One token by (creator, collection, tokenName), narrowed by standard and collection URI when given.
 * Resolved through the collection (its creator and name), not the token row: v2 token rows may not
 * repeat them, and (collection_id, token_name) is what the tokens index serves.
 */
export async function findTokenByName(
  db: Db,
  key: {
    creator: string;
    collection: string;
    tokenName: string;
    tokenStandard?: 'v1' | 'v2' | undefined;
    collectionUrl?: string | undefined;
  },
): Promise<TokenSummary | null> {
  const { rows } = await sql<TokenRecord>`
    SELECT ${TOKEN_COLUMNS} FROM collections c JOIN tokens t ON t.collection_id = c.collection_id
     WHERE c.creator_address = ${key.creator} AND c.collection_name = ${key.collection}
       AND t.token_name = ${key.tokenName}
       ${key.tokenStandard ? sql`AND t.token_standard = ${key.tokenStandard}` : sql``}
       ${key.collectionUrl ? sql`AND c.uri = ${key.collectionUrl}` : sql``}
     ORDER BY t.is_burned, t.last_transaction_version DESC
     LIMIT 1`.execute(db);
  return rows[0] ? toTokenSummary(rows[0]) : null;
}

export interface TokenBalance {
  tokenId: string;
  tokenName: string | null;
  tokenStandard: string;
  propertyVersion: string;
  creator: string | null;
  collection: string | null;
  collectionId: string | null;
  tokenUri: string | null;
  owner: string;
  amount: string;
  isSoulbound: boolean;
  /** Held for the wallet by its active listing (escrow or listing object). */
  listed: boolean;
  version: number;
  serviceInfo?: {
    lootboxId: number | null;
    rarityTier: string | null;
    rarityRank: number | null;
    listing: {
      listingId: string;
      marketplace: string;
      price: string;
      coinType: string | null;
      quantity: string;
      listedAt: string | null;
    } | null;
  };
}

interface BalanceRow {
  token_data_id: string;
  property_version: string;
  owner_address: string;
  collection_id: string | null;
  token_standard: string;
  amount: string;
  is_soulbound: boolean;
  last_transaction_version: number;
  listed: boolean;
  token_name: string | null;
  creator_address: string | null;
  collection_name: string | null;
  token_uri: string | null;
  lootbox_id?: number | null;
  lootbox_tier?: string | null;
  rarity_rank?: number | null;
  listing_id?: string | null;
  marketplace?: string | null;
  listing_price?: string | null;
  listing_coin_type?: string | null;
  listing_amount?: string | null;
  listed_at?: Date | null;
}

export interface BalanceFilter {
  address: string;
  greaterThanZeroBalance: boolean;
  /** Resolved from the collection / creator filters; undefined when neither was given. */
  collectionIds?: string[] | undefined;
  serviceInfo: boolean;
}

const BALANCE_KEYS: SortKey[] = [
  { expr: sql`coalesce(o.collection_id, '')`, dir: 'asc', kind: 'text' },
  { expr: sql`o.token_data_id`, dir: 'asc', kind: 'text' },
  { expr: sql`o.property_version`, dir: 'asc', kind: 'u64' },
];

/**
 * The wallet's balances, in (collection, token) order: its positive (or all) ownership rows, plus
 * the tokens it has listed, which a marketplace holds in escrow or a listing object but which are
 * still the seller's (the same rule as the worker's holder counts).
 */
export async function tokenBalances(
  db: Db,
  filter: BalanceFilter,
  request: PageRequest,
): Promise<Page<TokenBalance>> {
  const a = filter.address;
  const inCollections = (column: string) =>
    filter.collectionIds ? sql`AND ${sql.ref(column)} = ANY(${filter.collectionIds})` : sql``;
  const held = sql`(
    SELECT o.token_data_id, o.property_version, o.owner_address, o.collection_id, o.token_standard, o.amount,
           o.is_soulbound, o.last_transaction_version, false AS listed
      FROM token_ownerships o
     WHERE o.owner_address = ${a} ${filter.greaterThanZeroBalance ? sql`AND o.amount > 0` : sql``}
           ${inCollections('o.collection_id')}
    UNION ALL
    SELECT l.token_data_id, coalesce(l.property_version, 0), l.seller, l.collection_id,
           coalesce(l.token_standard, 'v2'), l.token_amount, false, l.last_transaction_version, true
      FROM listings l
     WHERE l.status = 'active' AND l.seller = ${a} ${inCollections('l.collection_id')}
       AND NOT EXISTS (SELECT 1 FROM token_ownerships x
                        WHERE x.token_data_id = l.token_data_id AND x.owner_address = ${a} AND x.amount > 0)
  ) o`;
  const after = request.cursor
    ? keysetAfter(BALANCE_KEYS, decodeCursor(request.cursor, kindsOf(BALANCE_KEYS)))
    : sql`true`;
  const service = filter.serviceInfo
    ? {
        columns: sql`, t.lootbox_id, t.lootbox_tier, r.rank AS rarity_rank, al.listing_id, al.marketplace,
          al.price AS listing_price, al.coin_type AS listing_coin_type, al.token_amount AS listing_amount, al.listed_at`,
        joins: sql`
          LEFT JOIN token_rarity r ON r.token_data_id = o.token_data_id
          LEFT JOIN LATERAL (
            SELECT l.listing_id, l.marketplace, l.price, l.coin_type, l.token_amount, l.listed_at FROM listings l
             WHERE l.token_data_id = o.token_data_id AND l.status = 'active' AND l.seller = o.owner_address
             ORDER BY l.price LIMIT 1) al ON true`,
      }
    : { columns: sql``, joins: sql`` };
  const [{ rows }, { rows: count }] = await Promise.all([
    sql<BalanceRow>`
      SELECT o.token_data_id, o.property_version, o.owner_address, o.collection_id, o.token_standard, o.amount,
             o.is_soulbound, o.last_transaction_version, o.listed, t.token_name,
             coalesce(t.creator_address, c.creator_address) AS creator_address,
             coalesce(t.collection_name, c.collection_name) AS collection_name, t.token_uri
             ${service.columns}
        FROM ${held}
        LEFT JOIN tokens t ON t.token_data_id = o.token_data_id
        LEFT JOIN collections c ON c.collection_id = o.collection_id
        ${service.joins}
       WHERE ${after}
       ORDER BY ${sql.join(
         BALANCE_KEYS.map((k) => k.expr),
         sql`, `,
       )}
       LIMIT ${request.limit + 1} OFFSET ${offsetOf(request)}`.execute(db),
    sql<{ total: number }>`SELECT count(*)::int AS total FROM ${held}`.execute(db),
  ]);
  return toPage(
    rows,
    request,
    count[0]?.total ?? 0,
    (r) => [r.collection_id ?? '', r.token_data_id, r.property_version],
    (r) => toBalance(r, filter.serviceInfo),
  );
}

function toBalance(r: BalanceRow, serviceInfo: boolean): TokenBalance {
  const balance: TokenBalance = {
    tokenId: r.token_data_id,
    tokenName: r.token_name,
    tokenStandard: r.token_standard,
    propertyVersion: r.property_version,
    creator: r.creator_address,
    collection: r.collection_name,
    collectionId: r.collection_id,
    tokenUri: r.token_uri,
    owner: r.owner_address,
    amount: r.amount,
    isSoulbound: r.is_soulbound,
    listed: r.listed,
    version: r.last_transaction_version,
  };
  if (!serviceInfo) return balance;
  balance.serviceInfo = {
    lootboxId: r.lootbox_id ?? null,
    rarityTier: r.lootbox_tier ?? null,
    rarityRank: r.rarity_rank ?? null,
    listing:
      r.listing_id && r.marketplace && r.listing_price
        ? {
            listingId: r.listing_id,
            marketplace: r.marketplace,
            price: r.listing_price,
            coinType: r.listing_coin_type ?? null,
            quantity: r.listing_amount ?? '1',
            listedAt: r.listed_at ? r.listed_at.toISOString() : null,
          }
        : null,
  };
  return balance;
}

/** The token's OpenRarity rank and score as the worker last computed them. */
export async function tokenRarity(db: Db, tokenId: string): Promise<{ rank: number; score: number } | null> {
  const row = await db
    .selectFrom('token_rarity')
    .select(['rank', 'score'])
    .where('token_data_id', '=', tokenId)
    .executeTakeFirst();
  return row ?? null;
}

/** The current holders of a token (several for a fungible v1 token), largest balance first. */
export async function tokenOwners(db: Db, tokenId: string): Promise<{ owner: string; amount: string }[]> {
  const rows = await db
    .selectFrom('token_ownerships')
    .select(['owner_address', 'amount'])
    .where('token_data_id', '=', tokenId)
    .where('amount', '>', '0')
    .orderBy('amount', 'desc')
    .limit(10)
    .execute();
  return rows.map((r) => ({ owner: r.owner_address, amount: r.amount }));
}
